#!/usr/bin/env bash
# `cuzk prove porep` / `cuzk verify porep` / `cuzk setup porep` error paths, none of which
# needs PoRep parameters: missing parameter files (named, with the env variable), bad C1
# files, bad hex, wrong sizes, a truncated proof.
set -u
cuzk=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect() {  # expect <what> <needle> <command...>: exit 1 and the needle in the output
    local what=$1 needle=$2
    shift 2
    out=$("$@" 2>&1) && fail "$what: accepted"
    echo "$out" | grep -qF -- "$needle" || fail "$what: expected '$needle' in: $out"
}
hex=$(printf '00%.0s' {1..32})

"$cuzk" seal --sector-size 2KiB --out "$dir/c1.json" >/dev/null 2>&1 || fail "seal"
mkdir -p "$dir/none"
name=v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher
expect "prove without params" "$dir/none/$name" "$cuzk" prove porep --c1 "$dir/c1.json" --param-dir "$dir/none" --out "$dir/p.bin"
expect "prove without params (env)" "FIL_PROOFS_PARAMETER_CACHE" env FIL_PROOFS_PARAMETER_CACHE="$dir/none" "$cuzk" prove porep --c1 "$dir/c1.json" --out "$dir/p.bin"
expect "prove a missing C1" "cannot open" "$cuzk" prove porep --c1 "$dir/nope.json" --param-dir "$dir/none"
head -c 5000 "$dir/c1.json" > "$dir/short.json"
expect "prove a truncated C1" "$dir/short.json" "$cuzk" prove porep --c1 "$dir/short.json" --param-dir "$dir/none"
sed 's/"comm_r":\[/"comm_r":[1,/' "$dir/c1.json" > "$dir/bad.json"
expect "prove a C1 with a 33-byte comm_r" "comm_r" "$cuzk" prove porep --c1 "$dir/bad.json" --param-dir "$dir/none"
[ -e "$dir/p.bin" ] && fail "a failed prove left a proof file"

head -c 192 /dev/zero > "$dir/one.bin"
head -c 100 /dev/zero > "$dir/trunc.bin"
v=(verify porep --sector-size 2KiB --comm-r "$hex" --comm-d "$hex" --replica-id "$hex" --seed "$hex" --param-dir "$dir/none")
expect "verify a truncated proof" "100 bytes, expected 192" "$cuzk" "${v[@]}" --proof "$dir/trunc.bin"
expect "verify without a vk" "$dir/none/$name" "$cuzk" "${v[@]}" --proof "$dir/one.bin"
expect "verify with bad hex" "--comm-r: expected 64 hex digits" "$cuzk" verify porep --sector-size 2KiB --comm-r 12zz --comm-d "$hex" --replica-id "$hex" --seed "$hex" --proof "$dir/one.bin"
expect "verify an unknown size" "unknown sector size '3KiB'" "$cuzk" verify porep --sector-size 3KiB --comm-r "$hex" --comm-d "$hex" --replica-id "$hex" --seed "$hex" --proof "$dir/one.bin"
expect "verify a 32 GiB proof of one partition" "expected 1920" "$cuzk" verify porep --sector-size 32GiB --comm-r "$hex" --comm-d "$hex" --replica-id "$hex" --seed "$hex" --proof "$dir/one.bin"
expect "verify with a proof of another size" "is for 2048-byte sectors" "$cuzk" verify porep --sector-size 8MiB --registered-proof StackedDrg2KiBV1_1 --comm-r "$hex" --comm-d "$hex" --replica-id "$hex" --seed "$hex" --proof "$dir/one.bin"
expect "setup an unknown size" "unknown sector size" "$cuzk" setup porep --sector-size 4KiB --out-dir "$dir/none"
touch "$dir/none/$name-032d3138d22506ec0082ed72b2dcba18df18477904e35bafee82b3793b06832f.params"
expect "setup over existing files" "--force" "$cuzk" setup porep --sector-size 2KiB --out-dir "$dir/none"
# The built-in verify still wants its options.
expect "verify without options" "--vk, --proof and --public are required" "$cuzk" verify
echo "OK"
