#!/usr/bin/env bash
# Make ROOT a minimal root file system in which BINARY (a dynamically linked
# executable of this machine) runs, from the build host's own files:
#
#   deploy/rootfs.sh ROOT BINARY
#
# It does not copy BINARY itself: the caller puts the program where it wants it
# (deploy/image.sh installs it as /usr/bin/adrprobe; tests/integration/test_deb.py
# unpacks the Debian package into ROOT). It adds:
#   BINARY's shared libraries      found with ldd, the dynamic loader included, at
#                                  the paths the loader looks for them (merged /usr
#                                  symlinks such as /lib -> usr/lib as on the host)
#   /etc/ssl/certs/ca-certificates.crt   the host's CA bundle: libcurl's compiled-in
#                                  CAINFO on Debian; OpenSSL's own handshakes (TLS
#                                  checks) read it through SSL_CERT_FILE and the
#                                  /usr/lib/ssl links Debian has
#   /usr/lib/ssl/openssl.cnf       Debian's OpenSSL configuration (OpenSSL runs
#                                  without it too; it is there so the root behaves
#                                  as the host does)
#   /etc/passwd, /etc/group        root and nobody/nogroup (65534)
#   /etc/nsswitch.conf, /etc/hosts name lookups: files, then DNS (glibc >= 2.34 has
#                                  the files and dns modules inside libc.so.6, so
#                                  no libnss_*.so is needed)
#   /tmp                           empty, world-writable, sticky
# Progress and errors go to stderr, prefixed with the caller's name ($ROOTFS_SAY,
# default rootfs.sh).
set -euo pipefail

say() { echo "${ROOTFS_SAY:-rootfs.sh}: $*" >&2; }
die() { say "$*"; exit 1; }

[ $# -eq 2 ] || die "usage: deploy/rootfs.sh ROOT BINARY"
root=$1
binary=$2
command -v ldd >/dev/null || die "ldd is not installed (Debian: libc-bin)"
[ -d "$root" ] || die "$root is not a directory"
[ -x "$binary" ] || die "$binary is not an executable"
ldd "$binary" >/dev/null 2>&1 || die "$binary is not a dynamically linked executable of this machine (ldd fails)"
ca_bundle=/etc/ssl/certs/ca-certificates.crt
[ -s "$ca_bundle" ] || die "$ca_bundle is missing (Debian: apt-get install ca-certificates)"

mkdir -p "$root"/{usr/bin,etc/ssl/certs,usr/lib/ssl,tmp}

# Top-level directories that are symlinks on the host (merged /usr: /lib ->
# usr/lib, /lib64 -> usr/lib64, ...) are the same symlinks in the root, so
# every path ldd prints, and the loader path written into the binary, resolves.
for d in bin sbin lib lib32 lib64 libx32; do
  if [ -L "/$d" ] && [ ! -e "$root/$d" ] && [ ! -L "$root/$d" ]; then
    ln -s "$(readlink "/$d")" "$root/$d"
  fi
done

# Place a host file at the same path in the root: its directory resolved
# through symlinks, the file's content (not a symlink to it).
place() {
  local src=$1 dir
  dir=$(cd "$(dirname "$src")" && pwd -P)
  mkdir -p "$root$dir"
  cp -L --preserve=mode "$src" "$root$dir/$(basename "$src")"
}

# ldd lines: "libfoo.so.1 => /path/libfoo.so.1 (0x...)", "/lib64/ld-linux-x86-64.so.2 (0x...)",
# "linux-vdso.so.1 (0x...)" (in the kernel: no file).
libs=$(ldd "$binary" | awk '$2 == "=>" && $3 ~ /^\// {print $3} $1 ~ /^\// {print $1}' | sort -u)
[ -n "$libs" ] || die "ldd found no libraries for $binary"
if ldd "$binary" | grep -q "not found"; then
  die "$binary has unresolved libraries: $(ldd "$binary" | grep 'not found' | tr -s ' \t' ' ')"
fi
for lib in $libs; do place "$lib"; done
# Merged /usr links whose target the root does not have (/sbin, /lib32 ...) are left out.
for d in bin sbin lib lib32 lib64 libx32; do
  if [ -L "$root/$d" ] && [ ! -e "$root/$d" ]; then rm "$root/$d"; fi
done

cp "$ca_bundle" "$root/etc/ssl/certs/ca-certificates.crt"
chmod 0644 "$root/etc/ssl/certs/ca-certificates.crt"
# As Debian lays out OpenSSL's directory (OPENSSLDIR is /usr/lib/ssl).
ln -sfn /etc/ssl/certs/ca-certificates.crt "$root/usr/lib/ssl/cert.pem"
ln -sfn /etc/ssl/certs "$root/usr/lib/ssl/certs"
if [ -f /usr/lib/ssl/openssl.cnf ]; then
  cp -L /usr/lib/ssl/openssl.cnf "$root/etc/ssl/openssl.cnf"
  chmod 0644 "$root/etc/ssl/openssl.cnf"
  ln -sfn /etc/ssl/openssl.cnf "$root/usr/lib/ssl/openssl.cnf"
fi

cat >"$root/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/usr/sbin/nologin
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
EOF
cat >"$root/etc/group" <<'EOF'
root:x:0:
nogroup:x:65534:
EOF
cat >"$root/etc/nsswitch.conf" <<'EOF'
passwd: files
group:  files
hosts:  files dns
EOF
cat >"$root/etc/hosts" <<'EOF'
127.0.0.1 localhost
::1       localhost ip6-localhost ip6-loopback
EOF
chmod 0644 "$root"/etc/{passwd,group,nsswitch.conf,hosts}
chmod 1777 "$root/tmp"
