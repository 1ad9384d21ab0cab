#!/usr/bin/env bash
# Build the adrprobe OCI image with buildah, from this repository's own files
# and the build host's shared libraries: no base image is pulled.
#
#   deploy/image.sh [--shell] [BINARY]
#
# BINARY defaults to build/adrprobe, built first with `./dev build`. The image
# holds, on an empty (scratch) root:
#   /usr/bin/adrprobe              the binary (entrypoint), run as nobody (65534:65534)
#   its shared libraries           found with ldd, the dynamic loader included, at
#                                  the paths the loader looks for them (merged /usr
#                                  symlinks such as /lib -> usr/lib as on the host)
#   /etc/ssl/certs/ca-certificates.crt   the host's CA bundle: libcurl's compiled-in
#                                  CAINFO on Debian; OpenSSL's own handshakes (TLS
#                                  checks) read it through SSL_CERT_FILE and the
#                                  /usr/lib/ssl links Debian has
#   /usr/lib/ssl/openssl.cnf       Debian's OpenSSL configuration (OpenSSL runs
#                                  without it too; it is there so the image behaves
#                                  as the host does)
#   /etc/passwd, /etc/group        root and nobody/nogroup (65534)
#   /etc/nsswitch.conf, /etc/hosts name lookups: files, then DNS (glibc >= 2.34 has
#                                  the files and dns modules inside libc.so.6, so
#                                  no libnss_*.so is needed; Kubernetes mounts its
#                                  own /etc/hosts and /etc/resolv.conf)
#   /tmp                           empty, world-writable, sticky; TMPDIR=/tmp
#
# and no shell: Kubernetes runs it as it is (deploy/kubernetes/cronjob.yaml).
# Everything but the binary comes from deploy/rootfs.sh.
# --shell adds Debian's statically linked busybox (package busybox-static) as
# /bin/sh and the other busybox commands, and names the image <version>-ci: a
# GitLab CI job image must have a shell (deploy/gitlab-ci.yml).
#
# Environment:
#   IMAGE           the name to commit to (default localhost/adrprobe:<version from meson.build>,
#                   with --shell localhost/adrprobe:<version>-ci)
#   SOURCE_URL      org.opencontainers.image.source (default: the git remote
#                   "origin" when it is an http(s) URL; else the label is left out)
#   STORAGE_DRIVER  buildah's own: when unset and buildah's default storage cannot
#                   make a container, the script tries once more with vfs
#
# Rootless: run it as `buildah unshare deploy/image.sh`. Stdout's last line is
# the image reference; progress goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { echo "image.sh: $*" >&2; }
die() { say "$*"; exit 1; }

command -v buildah >/dev/null || die "buildah is not installed (Debian: apt-get install buildah)"

shell=no
if [ "${1:-}" = "--shell" ]; then
  shell=yes
  shift
fi
case "${1:-}" in -*) die "usage: deploy/image.sh [--shell] [BINARY]" ;; esac

version=$(sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" meson.build | head -n 1)
[ -n "$version" ] || die "no version in meson.build"
tag=$version
[ "$shell" = yes ] && tag="$version-ci"
image="${IMAGE:-localhost/adrprobe:$tag}"

if [ $# -gt 0 ]; then
  binary=$1
else
  ./dev build >&2
  binary=build/adrprobe
fi
[ -x "$binary" ] || die "$binary is not an executable"

busybox=/bin/busybox
if [ "$shell" = yes ]; then
  # ldd refuses a static executable: busybox needs no library then
  { [ -x "$busybox" ] && ! ldd "$busybox" >/dev/null 2>&1; } || die "--shell needs a statically linked $busybox (Debian: apt-get install busybox-static)"
fi

stage=$(mktemp -d "${TMPDIR:-/tmp}/adrprobe-image.XXXXXX")
ctr=""
cleanup() {
  [ -n "$ctr" ] && buildah rm "$ctr" >/dev/null 2>&1 || true
  rm -rf "$stage"
}
trap cleanup EXIT

# --- the root file system, staged in a directory -------------------------
root="$stage/root"
mkdir -p "$root/usr/bin"
install -m 0755 "$binary" "$root/usr/bin/adrprobe"
# Without its debug information (binutils' strip): a fraction of the size.
if command -v strip >/dev/null; then
  strip --strip-debug "$root/usr/bin/adrprobe"
else
  say "strip (binutils) not found: the binary keeps its debug information"
fi
# Its libraries, the CA bundle, OpenSSL's directory, /etc, /tmp: shared with
# the Debian package's install test (tests/integration/test_deb.py).
ROOTFS_SAY=image.sh deploy/rootfs.sh "$root" "$binary"

if [ "$shell" = yes ]; then
  install -m 0755 "$busybox" "$root/usr/bin/busybox"
  # Every command busybox has, as a link in /usr/bin (/bin is the same
  # directory on merged /usr), except names the image already has.
  for cmd in $("$busybox" --list); do
    [ -e "$root/usr/bin/$cmd" ] || [ -L "$root/usr/bin/$cmd" ] || ln -s busybox "$root/usr/bin/$cmd"
  done
  [ -e "$root/bin/sh" ] || die "busybox gave no /bin/sh"
fi

# --- the image ----------------------------------------------------------
if ! ctr=$(buildah from scratch 2>"$stage/from.err"); then
  if [ -z "${STORAGE_DRIVER:-}" ]; then
    say "buildah's default storage failed ($(tr '\n' ' ' <"$stage/from.err")); trying STORAGE_DRIVER=vfs"
    export STORAGE_DRIVER=vfs
    ctr=$(buildah from scratch) || die "buildah from scratch failed with vfs storage too"
  else
    cat "$stage/from.err" >&2
    die "buildah from scratch failed (STORAGE_DRIVER=$STORAGE_DRIVER)"
  fi
fi

buildah copy --quiet --chown 0:0 "$ctr" "$root" / >/dev/null

labels=(
  --label "org.opencontainers.image.title=adrprobe"
  --label "org.opencontainers.image.description=Tests a live REST API against the Dutch REST API Design Rules"
  --label "org.opencontainers.image.version=$version"
  --label "org.opencontainers.image.licenses=EUPL-1.2"
  --label "org.opencontainers.image.created=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
)
source_url="${SOURCE_URL:-}"
if [ -z "$source_url" ]; then
  remote=$(git remote get-url origin 2>/dev/null || true)
  case "$remote" in http://* | https://*) source_url=${remote%.git} ;; esac
fi
[ -n "$source_url" ] && labels+=(--label "org.opencontainers.image.source=$source_url")
revision=$(git rev-parse HEAD 2>/dev/null || true)
[ -n "$revision" ] && labels+=(--label "org.opencontainers.image.revision=$revision")

buildah config \
  --user 65534:65534 \
  --entrypoint '["/usr/bin/adrprobe"]' \
  --cmd '["--help"]' \
  --workingdir /tmp \
  --env PATH=/usr/local/bin:/usr/bin:/bin \
  --env TMPDIR=/tmp \
  --env SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt \
  "${labels[@]}" \
  "$ctr"

buildah commit --quiet --format oci "$ctr" "$image" >/dev/null
buildah rm "$ctr" >/dev/null
ctr=""

size=$(buildah images --format '{{.Size}}' "$image" 2>/dev/null | head -n 1 || true)
say "built $image${size:+ ($size)} from $binary$([ "$shell" = yes ] && echo ", with busybox")"
echo "$image"
