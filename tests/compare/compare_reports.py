#!/usr/bin/python3
"""Compare the JSON reports of two adrprobe binaries over every fixture profile
of the integration suites.

    compare_reports.py --old REV_OR_BINARY [--new BINARY] [--editions 1.0,2.0.0,2.1.0]
                       [--suite NAME]... [--log FILE] [--keep-build]

--old is an adrprobe binary, or a git revision of this repository: it is then
checked out in a temporary git worktree and built there (meson setup
--wrap-mode=nodownload, ninja under nice -n 19). --new defaults to
build/adrprobe.

Every integration suite (tests/integration/test_*.py, or those named with
--suite) runs against the new binary with the comparison hook of harness.py
switched on (ADRPROBE_COMPARE_WITH): each `adrprobe check` (and `lint`) run
of a suite is also made with the old binary, with the same arguments and
against the same running fixture server, and the two JSON reports are compared
after the normalisation in harness.normalise_report() (timings, generated_at,
tool version, the random CORS origin label, the servers' Date header). Reports
that differ only in how their exchanges are numbered (concurrent requests start
in varying order) count as identical and are counted apart. --editions compares
every run under each of those editions as well (--edition replaced).

Exit status: 0 every compared report is identical and every suite passed;
1 at least one report differs; 2 usage or build error; 3 no report differs,
but a suite failed or did not finish (so the comparison may be incomplete).

Only 127.0.0.1 is contacted. test_transport needs nginx and openssl (./dev
installs them); without them its TLS cases fail (skip only where Debian does not
package them), and so are not compared.
"""

import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent.parent
SUITES = REPO / "tests" / "integration"
EDITIONS = ("1.0", "2.0.0", "2.1.0")


def fail(message, status=2):
    print("compare_reports: " + message, file=sys.stderr)
    sys.exit(status)


def git(*args, **kw):
    return subprocess.run(["git", "-C", str(REPO)] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, **kw)


def build_revision(rev, keep):
    """Build adrprobe of git revision rev in a temporary worktree; returns
    (binary path, commit, cleanup function)."""
    found = git("rev-parse", "--verify", "--quiet", rev + "^{commit}")
    if found.returncode != 0:
        fail("--old %r is neither an executable file nor a git revision of %s" % (rev, REPO))
    commit = found.stdout.strip()
    tmp = Path(tempfile.mkdtemp(prefix="adrprobe-compare-"))
    tree = tmp / "src"
    add = git("worktree", "add", "--detach", str(tree), commit)
    if add.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        fail("git worktree add failed:\n" + add.stderr)

    def cleanup():
        if keep:
            print("kept the old build in %s (git worktree; remove with: git worktree remove --force %s)"
                  % (tree, tree))
            return
        git("worktree", "remove", "--force", str(tree))
        shutil.rmtree(tmp, ignore_errors=True)
        git("worktree", "prune")

    print("building %s (%s) in %s ..." % (rev, commit[:12], tree), flush=True)
    log = tmp / "build.log"
    with open(log, "w") as out:
        steps = [["meson", "setup", "build", "--wrap-mode=nodownload"],
                 ["nice", "-n", "19", "ninja", "-C", "build", "adrprobe"]]
        for step in steps:
            rc = subprocess.run(step, cwd=tree, stdout=out, stderr=subprocess.STDOUT,
                                stdin=subprocess.DEVNULL).returncode
            if rc != 0:
                tail = log.read_text(errors="replace")[-4000:]
                cleanup()
                fail("building %s failed (%s):\n%s" % (rev, " ".join(step), tail))
    exe = tree / "build" / "adrprobe"
    if not os.access(exe, os.X_OK):
        cleanup()
        fail("the build of %s produced no build/adrprobe" % rev)
    return str(exe), commit, cleanup


def suite_files(names):
    every = sorted(SUITES.glob("test_*.py"))
    if not names:
        return every
    chosen = []
    for name in names:
        stem = name if name.startswith("test_") else "test_" + name
        stem = stem[:-3] if stem.endswith(".py") else stem
        path = SUITES / (stem + ".py")
        if not path.exists():
            fail("no suite %s (have: %s)" % (path.name, ", ".join(p.stem for p in every)))
        chosen.append(path)
    return chosen


def unittest_outcome(output):
    """('ok' | 'FAILED (...)' | 'did not finish', [failing test lines])."""
    status = "did not finish"
    for line in output.splitlines():
        if line.startswith("OK") or line.startswith("FAILED"):
            status = line.strip()
    failing = [line for line in output.splitlines() if re.match(r"^(FAIL|ERROR): ", line)]
    return status, failing


def run_suite(path, env, timeout, log_dir):
    start = time.monotonic()
    out_path = log_dir / (path.stem + ".out")
    with open(out_path, "w") as out:
        try:
            proc = subprocess.run(["/usr/bin/python3", str(path)], cwd=REPO, env=env, stdout=out,
                                  stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, timeout=timeout)
            rc = proc.returncode
        except subprocess.TimeoutExpired:
            rc = None
    output = out_path.read_text(errors="replace")
    status, failing = unittest_outcome(output)
    if rc is None:
        status = "timed out after %d s" % timeout
    return rc, status, failing, time.monotonic() - start


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="Exit status: 0 identical, 1 a report differs, 2 usage/build error, "
                                        "3 no difference but a suite failed or did not finish.")
    ap.add_argument("--old", required=True, help="the old adrprobe: a binary, or a git revision to build")
    ap.add_argument("--new", default=str(REPO / "build" / "adrprobe"), help="the new binary (default build/adrprobe)")
    ap.add_argument("--editions", default="",
                    help="also compare every run under these editions, comma-separated (e.g. 1.0,2.0.0,2.1.0)")
    ap.add_argument("--all-editions", action="store_true", help="same as --editions " + ",".join(EDITIONS))
    ap.add_argument("--suite", action="append", default=[], help="only this suite (test_cli or cli); repeatable")
    ap.add_argument("--log", help="keep the comparison log (JSON lines) in this file")
    ap.add_argument("--keep-build", action="store_true", help="keep the worktree and build of --old REV")
    ap.add_argument("--drop", default="",
                    help="members left out of both reports before comparing, dotted, a list stepped into "
                         "(a deliberate change: exchanges.request_headers,run.options.max_requests)")
    ap.add_argument("--suite-timeout", type=int, default=3600, help="seconds per suite (default 3600)")
    args = ap.parse_args(argv)

    editions = list(EDITIONS) if args.all_editions else [e for e in args.editions.split(",") if e]
    for e in editions:
        if e not in EDITIONS:
            fail("unknown edition %r (known: %s)" % (e, ", ".join(EDITIONS)))
    new = os.path.abspath(args.new)
    if not os.access(new, os.X_OK):
        fail("--new %s is not an executable (build it: ninja -C build)" % new)
    suites = suite_files(args.suite)

    cleanup = lambda: None  # noqa: E731
    if os.path.isfile(args.old) and os.access(args.old, os.X_OK):
        old, old_what = os.path.abspath(args.old), os.path.abspath(args.old)
    else:
        old, commit, cleanup = build_revision(args.old, args.keep_build)
        old_what = "%s (built from %s = %s)" % (old, args.old, commit[:12])

    work = Path(tempfile.mkdtemp(prefix="adrprobe-compare-logs-"))
    log = Path(args.log).resolve() if args.log else work / "compare.jsonl"
    if log.exists():
        log.unlink()
    log.touch()
    env = dict(os.environ, ADRPROBE=new, ADRPROBE_COMPARE_WITH=old, ADRPROBE_COMPARE_LOG=str(log),
               ADRPROBE_COMPARE_EDITIONS=",".join(editions), ADRPROBE_COMPARE_DROP=args.drop,
               PYTHONDONTWRITEBYTECODE="1")

    print("old: %s\nnew: %s\neditions: as each test gives them%s\n" % (
        old_what, new, (" + each run again under " + ", ".join(editions)) if editions else ""), flush=True)
    results = []
    try:
        for path in suites:
            print("%-24s ..." % path.stem, end="", flush=True)
            before = len(log.read_text().splitlines())
            rc, status, failing, secs = run_suite(path, env, args.suite_timeout, work)
            entries = [json.loads(line) for line in log.read_text().splitlines()[before:] if line.strip()]
            counts = collections.Counter(e["result"] for e in entries)
            print(" %4d compared, %4d identical, %3d different, %3d not compared  (%s, %.0f s)" % (
                counts["identical"] + counts["different"], counts["identical"], counts["different"],
                counts["skipped"], status, secs), flush=True)
            results.append((path.stem, rc, status, failing, entries))
    finally:
        cleanup()

    entries = [e for r in results for e in r[4]]
    counts = collections.Counter(e["result"] for e in entries)
    compared = counts["identical"] + counts["different"]
    print("\nruns compared (fixture profiles x editions): %d\nidentical: %d\ndifferent: %d" % (
        compared, counts["identical"], counts["different"]))
    exit_only = sum(1 for e in entries if e["result"] == "identical" and e.get("kind") == "exit status only")
    if exit_only:
        print("  (of the identical, %d wrote no report in either binary, e.g. usage errors: "
              "exit statuses compared)" % exit_only)
    reordered = sum(1 for e in entries if e["result"] == "identical" and "another order" in e.get("kind", ""))
    if reordered:
        print("  (of the identical, %d only once exchanges were put in a canonical order: the same requests "
              "and answers, numbered in another order, as concurrent requests may be)" % reordered)
    if counts["skipped"]:
        reasons = collections.Counter(e.get("reason", "") for e in entries if e["result"] == "skipped")
        print("not compared: %d (%s)" % (counts["skipped"], "; ".join("%d %s" % (n, r) for r, n in reasons.items())))

    different = [e for e in entries if e["result"] == "different"]
    if different:
        print("\nDifferences (first differing JSON pointer of each report, after normalisation):")
        for e in different:
            print("- %s%s\n    adrprobe %s\n    at %s\n      old: %s\n      new: %s" % (
                e["test"], " [%s]" % e["variant"] if e.get("variant") else "", " ".join(e["args"]),
                e.get("path"), e.get("old"), e.get("new")))

    broken = [(name, status, failing) for name, rc, status, failing, _ in results if rc != 0]
    if broken:
        print("\nSuites that did not pass against the new binary (their remaining runs were still compared):")
        for name, status, failing in broken:
            print("- %s: %s" % (name, status))
            for line in failing[:20]:
                print("    " + line)
        print("  output of each suite: %s" % work)
    if args.log:
        print("\ncomparison log: %s" % log)
    if not broken:
        shutil.rmtree(work, ignore_errors=True)
    if different:
        return 1
    if broken:
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
