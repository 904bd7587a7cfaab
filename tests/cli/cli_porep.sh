#!/usr/bin/env bash
# PoRep C2 from the command line, end to end (VerySlow: the 2 KiB keys' setup takes minutes
# on 2 cores): setup porep (development keys under the v28 names, made once into
# $CUZK_TEST_PARAM_DIR, default /tmp/cuzk-porep-cli-params, and reused) -> seal -> prove
# porep -> verify porep; a changed seed, a changed comm_r and a flipped proof byte are
# rejected. Then NI-PoRep with the same keys (13 partitions): its proof verifies without a
# seed (or with any), a changed comm_r and a flipped byte of its last partition are rejected.
set -u
cuzk=$1
params=${CUZK_TEST_PARAM_DIR:-/tmp/cuzk-porep-cli-params}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
name=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f
if [ ! -e "$params/$name.params" ] || [ ! -e "$params/$name.vk" ]; then
    "$cuzk" setup porep --sector-size 2KiB --out-dir "$params" --force || fail "setup porep"
fi
seed=$(printf 'ab%.0s' {1..32})
"$cuzk" seal --sector-size 2KiB --seed-hex "$seed" --sector-id 9 --out "$dir/c1.json" > "$dir/seal.txt" 2>&1 || fail "seal"
val() { awk -v k="$1" '$1 == k { print $2 }' "$dir/seal.txt"; }
comm_r=$(val comm_r) comm_d=$(val comm_d) replica_id=$(val replica_id)
[ ${#comm_r} -eq 64 ] || fail "no comm_r in: $(cat "$dir/seal.txt")"

"$cuzk" prove porep --c1 "$dir/c1.json" --param-dir "$params" --backend "${CUZK_TEST_BACKEND:-auto}" --out "$dir/proof.bin" || fail "prove porep"
[ "$(stat -c %s "$dir/proof.bin")" -eq 192 ] || fail "proof is not 192 bytes"
v() { "$cuzk" verify porep --sector-size 2KiB --param-dir "$params" "$@"; }
v --proof "$dir/proof.bin" --comm-r "$comm_r" --comm-d "$comm_d" --replica-id "$replica_id" --seed "$seed" || fail "verify porep"
other=$(printf 'ac%.0s' {1..32})
v --proof "$dir/proof.bin" --comm-r "$comm_r" --comm-d "$comm_d" --replica-id "$replica_id" --seed "$other" && fail "changed seed accepted"
bad_r=${comm_r:0:62}$(printf '%02x' $(( (16#${comm_r:62:2} ^ 1) )))
v --proof "$dir/proof.bin" --comm-r "$bad_r" --comm-d "$comm_d" --replica-id "$replica_id" --seed "$seed" && fail "changed comm_r accepted"
cp "$dir/proof.bin" "$dir/flip.bin"
printf '\x01' | dd of="$dir/flip.bin" bs=1 seek=150 conv=notrunc status=none
v --proof "$dir/flip.bin" --comm-r "$comm_r" --comm-d "$comm_d" --replica-id "$replica_id" --seed "$seed" && fail "flipped byte accepted"

# NI-PoRep with the same keys: 13 partitions, challenges from comm_r, no seed to verify with.
"$cuzk" seal --sector-size 2KiB --non-interactive --seed-hex "$seed" --sector-id 9 --out "$dir/ni.json" > "$dir/ni.txt" 2>&1 || fail "seal --non-interactive"
val() { awk -v k="$1" '$1 == k { print $2 }' "$dir/ni.txt"; }
comm_r=$(val comm_r) comm_d=$(val comm_d) replica_id=$(val replica_id)
"$cuzk" prove porep --c1 "$dir/ni.json" --param-dir "$params" --backend "${CUZK_TEST_BACKEND:-auto}" --out "$dir/ni.bin" || fail "prove porep (NI)"
[ "$(stat -c %s "$dir/ni.bin")" -eq $((13 * 192)) ] || fail "NI proof is not 13 x 192 bytes"
v --non-interactive --proof "$dir/ni.bin" --comm-r "$comm_r" --comm-d "$comm_d" --replica-id "$replica_id" || fail "verify porep (NI)"
v --non-interactive --proof "$dir/ni.bin" --comm-r "$comm_r" --comm-d "$comm_d" --replica-id "$replica_id" --seed "$other" || fail "NI proof refused with another seed (NI ignores it)"
bad_r=${comm_r:0:62}$(printf '%02x' $(( (16#${comm_r:62:2} ^ 1) )))
v --non-interactive --proof "$dir/ni.bin" --comm-r "$bad_r" --comm-d "$comm_d" --replica-id "$replica_id" && fail "NI: changed comm_r accepted"
cp "$dir/ni.bin" "$dir/ni-flip.bin"
printf '\x01' | dd of="$dir/ni-flip.bin" bs=1 seek=$((12 * 192 + 150)) conv=notrunc status=none
v --non-interactive --proof "$dir/ni-flip.bin" --comm-r "$comm_r" --comm-d "$comm_d" --replica-id "$replica_id" && fail "NI: flipped byte accepted"
echo "OK"
