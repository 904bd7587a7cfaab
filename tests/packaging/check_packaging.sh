#!/usr/bin/env bash
# packaging/: the packaged configuration passes `cuzk-daemon --check-config` (the unit's
# ExecStartPre), scripts/install lays out the tree with every @VAR@ replaced and the
# configuration kept when present, and `systemd-analyze verify` accepts the installed unit.
#   check_packaging.sh <build dir holding src/cli/cuzk and src/server/cuzk-daemon>
# Exit 77 (a skip for ctest) when systemd-analyze is not installed, after the other checks.
set -euo pipefail
build=$(cd "${1:?usage: check_packaging.sh <build dir>}" && pwd)
repo=$(cd "$(dirname "$0")/../.." && pwd)
daemon=$build/src/server/cuzk-daemon
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

"$daemon" --config "$repo/packaging/cuzk.toml" --check-config >"$tmp/check.out" 2>&1 ||
  fail "packaging/cuzk.toml: $(cat "$tmp/check.out")"
# --check-config stops at a bad file, naming the key, with status 2 (RestartPreventExitStatus).
printf '[daemon]\nlisten = ["nowhere"]\n' >"$tmp/bad.toml"
set +e
"$daemon" --config "$tmp/bad.toml" --check-config >"$tmp/bad.out" 2>&1
rc=$?
set -e
[ "$rc" = 2 ] || fail "--check-config of a bad file exited $rc, expected 2"
grep -q 'daemon.listen' "$tmp/bad.out" || fail "--check-config did not name daemon.listen: $(cat "$tmp/bad.out")"

# Install into a staging root, twice: the second run keeps the configuration.
stage=$tmp/root
prefix=/opt/cuzk
"$repo/scripts/install" --no-build --build-dir "$build" --prefix "$prefix" --destdir "$stage" >/dev/null
unit=$stage$prefix/lib/systemd/system/cuzk-daemon.service
for f in "$stage$prefix/bin/cuzk" "$stage$prefix/bin/cuzk-daemon" "$unit" "$stage$prefix/etc/cuzk/cuzk.toml" \
  "$stage$prefix/etc/cuzk/cuzk-daemon.env" "$stage$prefix/share/doc/cuzk/daemon.md"; do
  [ -e "$f" ] || fail "scripts/install did not install $f"
done
! grep -n '@[A-Z]*@' "$unit" || fail "unreplaced @VAR@ in the installed unit"
grep -q "^ExecStartPre=$prefix/bin/cuzk-daemon --config $prefix/etc/cuzk/cuzk.toml --check-config\$" "$unit" ||
  fail "the unit's ExecStartPre is not the installed --check-config"
[ "$(stat -c %a "$stage$prefix/etc/cuzk/cuzk-daemon.env")" = 600 ] || fail "cuzk-daemon.env is not mode 600"
echo "# edited" >>"$stage$prefix/etc/cuzk/cuzk.toml"
"$repo/scripts/install" --no-build --build-dir "$build" --prefix "$prefix" --destdir "$stage" >/dev/null
grep -q '^# edited$' "$stage$prefix/etc/cuzk/cuzk.toml" || fail "a second install overwrote the edited cuzk.toml"
[ -e "$stage$prefix/etc/cuzk/cuzk.toml.new" ] || fail "a second install did not leave cuzk.toml.new"
if "$repo/scripts/install" --prefix relative/dir --no-build --build-dir "$build" >/dev/null 2>&1; then
  fail "scripts/install accepted a relative prefix"
fi

if ! command -v systemd-analyze >/dev/null; then
  echo "SKIP: systemd-analyze is not installed (apt-get install systemd); the unit was not verified"
  exit 77
fi
# Verify the unit as installed to a real prefix (its ExecStart binaries must exist).
real=$tmp/prefix
"$repo/scripts/install" --no-build --build-dir "$build" --prefix "$real" >/dev/null
real_unit=$real/lib/systemd/system/cuzk-daemon.service
systemd-analyze verify --man=no "$real_unit" >"$tmp/verify.out" 2>&1 || fail "systemd-analyze verify: $(cat "$tmp/verify.out")"
if [ -s "$tmp/verify.out" ]; then fail "systemd-analyze verify warned: $(cat "$tmp/verify.out")"; fi
# ... and it is no rubber stamp: a misspelt directive is reported.
sed -i 's/^LimitNOFILE=/LimitNOFILES=/' "$real_unit"
systemd-analyze verify --man=no "$real_unit" >"$tmp/verify2.out" 2>&1 || true
grep -q 'LimitNOFILES' "$tmp/verify2.out" || fail "systemd-analyze verify did not report a misspelt directive"
echo "packaging ok"
