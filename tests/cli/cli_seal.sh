#!/usr/bin/env bash
# `cuzk seal`, `cuzk gen-vanilla` and `cuzk check-c1` end to end: a sealed 2 KiB sector and a
# synthetic 2 KiB C1 pass check-c1; a changed seed and bad options give exit 1 and a message.
set -u
cuzk=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
seed=$(printf 'ab%.0s' {1..32})

"$cuzk" seal --sector-size 2KiB --seed-hex "$seed" --sector-id 7 --out "$dir/c1.json" >/dev/null 2>&1 || fail "seal"
"$cuzk" check-c1 "$dir/c1.json" | grep -q "consistent" || fail "check-c1 of a sealed sector"
# The same sector twice: the same bytes.
"$cuzk" seal --sector-size 2KiB --seed-hex "$seed" --sector-id 7 --out "$dir/c1b.json" >/dev/null 2>&1 || fail "seal again"
cmp -s "$dir/c1.json" "$dir/c1b.json" || fail "seal is not deterministic"

# Sector data from a file (unpadded, zero-filled).
head -c 1000 /dev/urandom > "$dir/data.bin"
"$cuzk" seal --sector-size 2KiB --data "$dir/data.bin" --out "$dir/c1d.json" >/dev/null 2>&1 || fail "seal --data"
"$cuzk" check-c1 "$dir/c1d.json" >/dev/null || fail "check-c1 of a sector sealed from a file"

# A changed seed: the proven nodes are not the challenges any more.
sed 's/"seed":\[171/"seed":[17/' "$dir/c1.json" > "$dir/bad.json"
cmp -s "$dir/bad.json" "$dir/c1.json" && fail "test setup: seed unchanged"
out=$("$cuzk" check-c1 "$dir/bad.json" 2>&1) && fail "changed seed accepted"
echo "$out" | grep -q "but the challenge is node" || fail "changed seed: unexpected message: $out"

"$cuzk" gen-vanilla --sector-size 2KiB --seed 3 --out "$dir/syn.json" >/dev/null 2>&1 || fail "gen-vanilla"
"$cuzk" check-c1 "$dir/syn.json" >/dev/null || fail "check-c1 of synthetic proofs"

# NI-PoRep: 13 partitions of 2 challenges from comm_r; the seed is carried, not used.
"$cuzk" seal --sector-size 2KiB --non-interactive --seed-hex "$seed" --sector-id 7 --out "$dir/ni.json" \
  > "$dir/ni.txt" 2>&1 || fail "seal --non-interactive: $(cat "$dir/ni.txt")"
grep -q "registered_proof StackedDrg2KiBV1_2_Feat_NonInteractivePoRep (13 partitions x 2 challenges)" "$dir/ni.txt" \
  || fail "seal --non-interactive: unexpected summary: $(cat "$dir/ni.txt")"
"$cuzk" check-c1 "$dir/ni.json" >/dev/null || fail "check-c1 of the NI-PoRep C1"
sed 's/"seed":\[171/"seed":[17/' "$dir/ni.json" > "$dir/ni-seed.json"
cmp -s "$dir/ni-seed.json" "$dir/ni.json" && fail "test setup: NI seed unchanged"
"$cuzk" check-c1 "$dir/ni-seed.json" >/dev/null || fail "NI-PoRep C1 with another seed refused (NI ignores it)"
# Another comm_r: other challenges than the proven nodes.
for b in 7 8; do
  sed "s/\"comm_r\":\[[0-9]*,/\"comm_r\":[$b,/" "$dir/ni.json" > "$dir/ni-r.json"
  cmp -s "$dir/ni-r.json" "$dir/ni.json" || break
done
out=$("$cuzk" check-c1 "$dir/ni-r.json" 2>&1) && fail "NI-PoRep C1 with another comm_r accepted"
echo "$out" | grep -q "but the challenge is node" || fail "NI comm_r: unexpected message: $out"
out=$("$cuzk" seal --sector-size 2KiB --non-interactive --registered-proof StackedDrg2KiBV1_1 --out "$dir/x.json" 2>&1) \
  && fail "--non-interactive with an interactive proof accepted"
echo "$out" | grep -q "is not NI-PoRep" || fail "--non-interactive mismatch: unexpected message: $out"

out=$("$cuzk" seal --sector-size 3KiB --out "$dir/x.json" 2>&1) && fail "3KiB accepted"
echo "$out" | grep -q "unknown sector size '3KiB'" || fail "3KiB: unexpected message: $out"
out=$("$cuzk" seal --sector-size 32GiB --out "$dir/x.json" 2>&1) && fail "sealing 32GiB accepted"
echo "$out" | grep -q "gen-vanilla" || fail "32GiB seal: unexpected message: $out"
out=$("$cuzk" seal --sector-size 2KiB --ticket-hex 12 --out "$dir/x.json" 2>&1) && fail "short ticket accepted"
echo "$out" | grep -q "ticket-hex: expected 64 hex digits" || fail "short ticket: unexpected message: $out"
head -c 4000 /dev/zero > "$dir/big.bin"
out=$("$cuzk" seal --sector-size 2KiB --data "$dir/big.bin" --out "$dir/x.json" 2>&1) && fail "oversized data accepted"
echo "$out" | grep -q "do not fit" || fail "oversized data: unexpected message: $out"
out=$("$cuzk" gen-vanilla --sector-size 2KiB --registered-proof StackedDrg2KiBV1_2_Feat_NonInteractivePoRep \
  --out "$dir/x.json" 2>&1) && fail "NI-PoRep synthetic accepted"
echo "$out" | grep -q "interactive PoRep only" || fail "NI synthetic: unexpected message: $out"
out=$("$cuzk" gen-vanilla --sector-size 8MiB --registered-proof StackedDrg2KiBV1_1 --out "$dir/x.json" 2>&1) && fail "size mismatch accepted"
echo "$out" | grep -q "not 8MiB" || fail "size mismatch: unexpected message: $out"
echo "cli seal: ok"
