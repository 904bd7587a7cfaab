#!/usr/bin/env bash
# SnapDeals from the command line, end to end (VerySlow: the 2 KiB keys' setup takes minutes
# on 2 cores): setup snap (development keys under the v28 names, made once into
# $CUZK_TEST_PARAM_DIR, default /tmp/cuzk-porep-cli-params, and reused) -> seal -> snap encode
# (the same sector, updated) -> snap prove -> snap verify; a changed comm_r_new, a flipped
# proof byte and another update's partition proof are rejected.
set -u
cuzk=$1
params=${CUZK_TEST_PARAM_DIR:-/tmp/cuzk-porep-cli-params}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
name=v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-fb9e095bebdd77511c0269b967b4d87ba8b8a525edaa0e165de23ba454510194
if [ ! -e "$params/$name.params" ] || [ ! -e "$params/$name.vk" ]; then
    "$cuzk" setup snap --sector-size 2KiB --out-dir "$params" --force || fail "setup snap"
fi
"$cuzk" seal --sector-size 2KiB --sector-id 9 --out "$dir/c1.json" > "$dir/seal.txt" 2>&1 || fail "seal"
"$cuzk" snap encode --sector-size 2KiB --sector-id 9 --new-data-seed 5 --out-dir "$dir/v" > "$dir/enc.txt" 2>&1 \
    || fail "snap encode: $(cat "$dir/enc.txt")"
val() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }
comm_r=$(val comm_r "$dir/seal.txt")
r_old=$(val comm_r_old "$dir/enc.txt") r_new=$(val comm_r_new "$dir/enc.txt") d_new=$(val comm_d_new "$dir/enc.txt")
[ ${#r_new} -eq 64 ] || fail "no comm_r_new in: $(cat "$dir/enc.txt")"
[ "$r_old" = "$comm_r" ] || fail "comm_r_old $r_old is not the sealed sector's comm_r $comm_r"

comms=(--sector-size 2KiB --param-dir "$params" --comm-r-old "$r_old" --comm-d-new "$d_new")
"$cuzk" snap prove "${comms[@]}" --comm-r-new "$r_new" --vanilla-dir "$dir/v" \
    --backend "${CUZK_TEST_BACKEND:-auto}" --out "$dir/proof.bin" || fail "snap prove"
[ "$(stat -c %s "$dir/proof.bin")" -eq 192 ] || fail "proof is not 192 bytes"
v() { "$cuzk" snap verify "${comms[@]}" "$@"; }
v --comm-r-new "$r_new" --proof "$dir/proof.bin" || fail "snap verify"
bad_r=${r_new:0:62}$(printf '%02x' $(( (16#${r_new:62:2} ^ 1) )))
v --comm-r-new "$bad_r" --proof "$dir/proof.bin" && fail "changed comm_r_new accepted"
cp "$dir/proof.bin" "$dir/flip.bin"
printf '\x01' | dd of="$dir/flip.bin" bs=1 seek=150 conv=notrunc status=none
v --comm-r-new "$r_new" --proof "$dir/flip.bin" && fail "flipped byte accepted"
# A 2 KiB update has one partition: the partition proof of another update (other new data)
# is refused at prove, naming the partition. (Another partition's public inputs:
# Update.AnotherCommRNewOrPartitionIsRejected, at 16 KiB.)
"$cuzk" snap encode --sector-size 2KiB --sector-id 9 --new-data-seed 6 --out-dir "$dir/w" > /dev/null 2>&1 || fail "encode 2"
"$cuzk" snap prove "${comms[@]}" --comm-r-new "$r_new" --vanilla-dir "$dir/w" --out "$dir/p2.bin" > "$dir/p2.txt" 2>&1 \
    && fail "another update's vanilla proofs accepted"
grep -q "partition 0: " "$dir/p2.txt" || fail "the refusal does not name the partition: $(cat "$dir/p2.txt")"
echo "OK"
