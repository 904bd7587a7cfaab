#!/usr/bin/env bash
# Window or Winning PoSt from the command line, end to end at 2 KiB ($2: window-post or
# winning-post): gen-vanilla (sectors sealed in memory, and synthetic) -> setup post
# (development keys under the v28 names) -> prove post -> verify post; a changed randomness,
# a flipped proof byte, a flipped or changed byte of the request file, a truncated file and
# bad options are rejected with a message naming the file and the field.
set -u
cuzk=$1
kind=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect_fail() {  # expect_fail "what" "message part" command...
    local what=$1 part=$2
    shift 2
    local out
    out=$("$@" 2>&1) && fail "$what accepted"
    echo "$out" | grep -qF -- "$part" || fail "$what: unexpected message: $out"
}
params="$dir/params"
backend=${CUZK_TEST_BACKEND:-auto}

"$cuzk" gen-vanilla --kind "$kind" --sector-size 2KiB --sealed --sector-id 40 --out "$dir/req.bin" > "$dir/gen.txt" 2>&1 ||
    fail "gen-vanilla --sealed: $(cat "$dir/gen.txt")"
grep -q "^randomness " "$dir/gen.txt" || fail "no randomness in: $(cat "$dir/gen.txt")"
"$cuzk" gen-vanilla --kind "$kind" --sector-size 2KiB --sealed --sector-id 40 --out "$dir/req2.bin" >/dev/null 2>&1 ||
    fail "gen-vanilla again"
cmp -s "$dir/req.bin" "$dir/req2.bin" || fail "gen-vanilla is not deterministic"
[ "$(head -c 8 "$dir/req.bin")" = cuzkpost ] || fail "the file does not start with the magic"
"$cuzk" gen-vanilla --kind "$kind" --sector-size 2KiB --seed 5 --out "$dir/syn.bin" >/dev/null 2>&1 ||
    fail "gen-vanilla (synthetic)"

"$cuzk" setup post --kind "$kind" --sector-size 2KiB --out-dir "$params" --setup-seed 7 >/dev/null 2>&1 || fail "setup post"
ls "$params"/v28-proof-of-spacetime-fallback-merkletree-poseidon_hasher-8-0-0-*.params >/dev/null 2>&1 ||
    fail "no v28 parameter file in $params: $(ls "$params")"
expect_fail "setup over existing keys" "pass --force" "$cuzk" setup post --kind "$kind" --sector-size 2KiB --out-dir "$params"

for req in req syn; do
    "$cuzk" prove post --vanilla "$dir/$req.bin" --param-dir "$params" --backend "$backend" --out "$dir/$req.proof" \
        >/dev/null 2>&1 || fail "prove post ($req)"
    [ "$(stat -c %s "$dir/$req.proof")" -eq 192 ] || fail "proof ($req) is not 192 bytes"
    "$cuzk" verify post --proof "$dir/$req.proof" --vanilla "$dir/$req.bin" --param-dir "$params" | grep -q ": valid$" ||
        fail "verify post ($req)"
done
v() { "$cuzk" verify post --param-dir "$params" "$@"; }
# The proof of one request does not verify against the other's sectors.
expect_fail "a proof against another request" "INVALID" v --proof "$dir/syn.proof" --vanilla "$dir/req.bin"
other=$(printf '11%.0s' {1..32})
expect_fail "changed randomness" "INVALID" v --proof "$dir/req.proof" --vanilla "$dir/req.bin" --randomness "$other"
cp "$dir/req.proof" "$dir/flip.proof"
printf '\x01' | dd of="$dir/flip.proof" bs=1 seek=150 conv=notrunc status=none
expect_fail "flipped proof byte" "flip.proof" v --proof "$dir/flip.proof" --vanilla "$dir/req.bin"
head -c 100 "$dir/req.proof" > "$dir/short.proof"
expect_fail "truncated proof" "short.proof: 100 bytes, expected 192 (one partition): truncated" \
    v --proof "$dir/short.proof" --vanilla "$dir/req.bin"

p() { "$cuzk" prove post --param-dir "$params" --backend "$backend" --out "$dir/x.proof" --vanilla "$@"; }
# The randomness is bytes 20..51 of the file: the paths open other leaves than it challenges.
cp "$dir/req.bin" "$dir/rand.bin"
printf '\x07' | dd of="$dir/rand.bin" bs=1 seek=20 conv=notrunc status=none
expect_fail "changed randomness in the file" "rand.bin: " p "$dir/rand.bin"
expect_fail "changed randomness in the file" "sector 0 (id 40): inclusion_proofs[0]: opens leaf" p "$dir/rand.bin"
# A byte of a sibling hash in the first sector's first path.
cp "$dir/req.bin" "$dir/flip.bin"
printf '\x07' | dd of="$dir/flip.bin" bs=1 seek=200 conv=notrunc status=none
expect_fail "flipped byte in the file" "flip.bin: " p "$dir/flip.bin"
expect_fail "flipped byte in the file" "sector 0 (id 40): inclusion_proofs[0]" p "$dir/flip.bin"
head -c 3000 "$dir/req.bin" > "$dir/trunc.bin"
expect_fail "truncated file" "trunc.bin: vanilla_proofs[0] at byte 80: truncated" p "$dir/trunc.bin"
expect_fail "truncated file (verify)" "trunc.bin: vanilla_proofs[0] at byte 80: truncated" \
    v --proof "$dir/req.proof" --vanilla "$dir/trunc.bin"
echo "not a request file" > "$dir/text.bin"
expect_fail "a text file" "text.bin: magic at byte 0: not a PoSt request file" p "$dir/text.bin"
expect_fail "no file" "nothere.bin: cannot read" p "$dir/nothere.bin"
expect_fail "no keys" "v28-proof-of-spacetime-fallback" "$cuzk" prove post --param-dir "$dir/none" --out "$dir/x.proof" \
    --vanilla "$dir/req.bin"

g() { "$cuzk" gen-vanilla --sector-size 2KiB --out "$dir/x.bin" "$@"; }
expect_fail "too many sectors" "takes 1 to" g --kind "$kind" --sectors 3
expect_fail "non-canonical randomness" "--randomness-hex: not a canonical field element" \
    g --kind "$kind" --randomness-hex "$(printf 'ff%.0s' {1..32})"
expect_fail "--sealed at 32GiB" "--sealed holds each sector in memory" \
    "$cuzk" gen-vanilla --kind "$kind" --sector-size 32GiB --sealed --out "$dir/x.bin"
expect_fail "a PoSt option for porep" "--sectors is for --kind window-post or winning-post" g --sectors 2
expect_fail "unknown kind" "expected porep, window-post, winning-post" g --kind windowpost
expect_fail "a proof of the other kind" "is not a $kind proof" g --kind "$kind" --registered-proof \
    "$([ "$kind" = window-post ] && echo StackedDrgWinning2KiBV1 || echo StackedDrgWindow2KiBV1_2)"
echo "cli $kind: ok"
