#!/usr/bin/env bash
# circom/snarkjs end to end on the committed artefacts (tests/data/circom, scripts/circom):
# prove-zkey's proof.json and public.json pass cuzk verify-zkey and, where snarkjs is found
# (CUZK_SNARKJS, PATH, or build/npm from `scripts/circom tools`), `snarkjs groth16 verify`;
# the rapidsnark alias proves the same; a witness off by one is refused (naming the
# constraint with --r1cs); a flipped byte in any file gives an error naming the file and
# where; inspect describes the three files. The same on BN254 (chain8_bn254.*, snarkjs'
# bn128), and files of the two curves mixed are refused naming the file. Seconds.
set -u
cuzk=$1
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
data="$here/../data/circom"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# expect <code> <what> <needle> <command...>: that exit code and the needle in the output.
expect() {
    local code=$1 what=$2 needle=$3
    shift 3
    out=$("$@" 2>&1)
    local rc=$?
    [ "$rc" = "$code" ] || fail "$what: exit $rc, expected $code: $out"
    echo "$out" | grep -qF -- "$needle" || fail "$what: expected '$needle' in: $out"
}
# flip <file> <offset> <out>: a copy of file with the byte at offset XORed with 0x01.
flip() {
    cp "$1" "$3"
    local b
    b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
    printf "$(printf '\\%03o' $((b ^ 1)))" | dd of="$3" bs=1 seek="$2" conv=notrunc status=none
}
# section_offset <file> <section name>: the data offset that `cuzk inspect` prints.
section_offset() { "$cuzk" inspect "$1" | awk -v s="$2" '$2 == s { print $3 }'; }

zkey=$data/chain8.zkey wtns=$data/chain8.wtns r1cs=$data/chain8.r1cs vk=$data/chain8.vkey.json

"$cuzk" prove-zkey "$zkey" "$wtns" "$dir/proof.json" "$dir/public.json" --backend cpu || fail "prove-zkey"
grep -q '"curve": "bls12381"' "$dir/proof.json" || fail "proof.json names no curve: $(cat "$dir/proof.json")"
expect 0 "verify-zkey" "OK" "$cuzk" verify-zkey "$vk" "$dir/public.json" "$dir/proof.json"
"$cuzk" prove-zkey "$zkey" "$wtns" "$dir/p2.json" "$dir/pub2.json" --r1cs "$r1cs" --timings 2>"$dir/t.txt" ||
    fail "prove-zkey --r1cs: $(cat "$dir/t.txt")"
grep -q "self-verify" "$dir/t.txt" || fail "--timings printed nothing: $(cat "$dir/t.txt")"

snarkjs=${CUZK_SNARKJS:-$(command -v snarkjs || true)}
[ -z "$snarkjs" ] && [ -x "$here/../../build/npm/node_modules/.bin/snarkjs" ] && snarkjs="$here/../../build/npm/node_modules/.bin/snarkjs"
if [ -n "$snarkjs" ]; then
    out=$("$snarkjs" groth16 verify "$vk" "$dir/public.json" "$dir/proof.json" 2>&1) || fail "snarkjs verify: $out"
    echo "$out" | grep -q "OK" || fail "snarkjs did not accept cuzk's proof: $out"
    echo "snarkjs groth16 verify: OK"
else
    echo "SKIP snarkjs groth16 verify: snarkjs not found (set CUZK_SNARKJS or run scripts/circom tools)"
fi

# A development key from setup-zkey for the same .r1cs: proven, verified by cuzk and snarkjs.
expect 0 "setup-zkey" "development key: NOT a trusted setup" \
    "$cuzk" setup-zkey "$r1cs" "$dir/dev.zkey" --vk "$dir/dev.vkey.json" --seed 7
"$cuzk" prove-zkey "$dir/dev.zkey" "$wtns" "$dir/dp.json" "$dir/dpub.json" --r1cs "$r1cs" || fail "prove with setup-zkey's key"
expect 0 "verify setup-zkey's proof" "OK" "$cuzk" verify-zkey "$dir/dev.vkey.json" "$dir/dpub.json" "$dir/dp.json"
expect 1 "proof under another key" "INVALID" "$cuzk" verify-zkey "$vk" "$dir/dpub.json" "$dir/dp.json"
if [ -n "$snarkjs" ]; then
    out=$("$snarkjs" groth16 verify "$dir/dev.vkey.json" "$dir/dpub.json" "$dir/dp.json" 2>&1) || fail "snarkjs verify (dev key): $out"
fi

alias="$(dirname "$cuzk")/rapidsnark"
if [ -e "$alias" ]; then
    "$alias" "$zkey" "$wtns" "$dir/p3.json" "$dir/pub3.json" || fail "rapidsnark alias"
    cmp -s "$dir/public.json" "$dir/pub3.json" || fail "rapidsnark alias: other public signals"
    expect 0 "verify the alias's proof" "OK" "$cuzk" verify-zkey "$vk" "$dir/pub3.json" "$dir/p3.json"
fi

# A witness off by one: value 4 (t[0] = a b) plus one in its lowest byte.
w2=$(section_offset "$wtns" witness)
[ -n "$w2" ] || fail "inspect gave no witness section"
flip "$wtns" $((w2 + 4 * 32)) "$dir/bad.wtns"
expect 1 "off-by-one witness with --r1cs" "constraint 0 of 8 does not hold" \
    "$cuzk" prove-zkey "$zkey" "$dir/bad.wtns" "$dir/bp.json" "$dir/bpub.json" --r1cs "$r1cs"
expect 1 "off-by-one witness" "does not verify" "$cuzk" prove-zkey "$zkey" "$dir/bad.wtns" "$dir/bp.json" "$dir/bpub.json"
[ -e "$dir/bp.json" ] && fail "a proof was written for an unsatisfied witness"

# Flipped bytes: in the zkey's A point 2, the witness prime, the r1cs header, the key's magic.
a=$(section_offset "$zkey" A)
flip "$zkey" $((a + 2 * 96 + 50)) "$dir/bad.zkey"
expect 1 "flipped zkey byte" "section 5 (A) point 2 at byte $((a + 2 * 96))" \
    "$cuzk" prove-zkey "$dir/bad.zkey" "$wtns" "$dir/x.json" "$dir/y.json"
w1=$(section_offset "$wtns" header)
flip "$wtns" $((w1 + 4)) "$dir/bad2.wtns"
expect 1 "flipped wtns byte" "bad2.wtns: section 1 (header) prime at byte $((w1 + 4))" \
    "$cuzk" prove-zkey "$zkey" "$dir/bad2.wtns" "$dir/x.json" "$dir/y.json"
h=$(section_offset "$r1cs" header)
flip "$r1cs" $((h + 4 + 32)) "$dir/bad.r1cs"
expect 1 "flipped r1cs byte (nWires 10)" "bad.r1cs: section 2 (constraints) constraint 6 C term 2" \
    "$cuzk" prove-zkey "$zkey" "$wtns" "$dir/x.json" "$dir/y.json" --r1cs "$dir/bad.r1cs"
flip "$zkey" 0 "$dir/magic.zkey"
expect 1 "zkey magic" "not a .zkey file" "$cuzk" prove-zkey "$dir/magic.zkey" "$wtns" "$dir/x.json" "$dir/y.json"
head -c 5000 "$zkey" >"$dir/short.zkey"
expect 1 "truncated zkey" "runs past the end of the file" \
    "$cuzk" prove-zkey "$dir/short.zkey" "$wtns" "$dir/x.json" "$dir/y.json"
expect 1 "wtns as zkey" "it looks like a snarkjs/circom witness" \
    "$cuzk" prove-zkey "$wtns" "$wtns" "$dir/x.json" "$dir/y.json"

# A changed public signal or proof is rejected by verify-zkey; malformed JSON named.
sed 's/"3"/"4"/' "$dir/public.json" >"$dir/pub4.json"
expect 1 "wrong public signal" "INVALID" "$cuzk" verify-zkey "$vk" "$dir/pub4.json" "$dir/proof.json"
expect 1 "public and proof swapped" "proof.json: (root): expected an array of decimal strings" "$cuzk" verify-zkey "$vk" "$dir/proof.json" "$dir/public.json"
head -c 100 "$dir/proof.json" >"$dir/cut.json"
expect 1 "truncated proof.json" "malformed JSON" "$cuzk" verify-zkey "$vk" "$dir/public.json" "$dir/cut.json"

expect 0 "inspect zkey" "nVars 11 (ONE included), nPublic 2, domainSize 16" "$cuzk" inspect "$zkey"
expect 0 "inspect wtns" "11 values" "$cuzk" inspect "$wtns"
expect 0 "inspect r1cs" "8 constraints, 11 wires" "$cuzk" inspect "$r1cs"
expect 1 "inspect truncated zkey" "runs past the end of the file" "$cuzk" inspect "$dir/short.zkey"

# ---- BN254 (bn128): the curve comes from the files ----------------------------------------
bz=$data/chain8_bn254.zkey bw=$data/chain8_bn254.wtns br=$data/chain8_bn254.r1cs bvk=$data/chain8_bn254.vkey.json
"$cuzk" prove-zkey "$bz" "$bw" "$dir/bn.json" "$dir/bnpub.json" --backend cpu || fail "prove-zkey (BN254)"
grep -q '"curve": "bn128"' "$dir/bn.json" || fail "BN254 proof.json names no bn128: $(cat "$dir/bn.json")"
expect 0 "verify-zkey (BN254)" "OK" "$cuzk" verify-zkey "$bvk" "$dir/bnpub.json" "$dir/bn.json"
expect 0 "prove-zkey --r1cs --timings (BN254)" "" "$cuzk" prove-zkey "$bz" "$bw" "$dir/bn2.json" "$dir/bnpub2.json" \
    --r1cs "$br" --timings
echo "$out" | grep -q "BN254, backend cpu" || fail "--timings does not name BN254: $out"
if [ -n "$snarkjs" ]; then
    out=$("$snarkjs" groth16 verify "$bvk" "$dir/bnpub.json" "$dir/bn.json" 2>&1) || fail "snarkjs verify (BN254): $out"
    echo "$out" | grep -q "OK" || fail "snarkjs did not accept cuzk's BN254 proof: $out"
    echo "snarkjs groth16 verify (BN254): OK"
fi
if ! nvidia-smi -L >/dev/null 2>&1; then
    expect 1 "BN254 key with --backend cuda and no GPU" "backend cuda unavailable" \
        "$cuzk" prove-zkey "$bz" "$bw" "$dir/x.json" "$dir/y.json" --backend cuda
fi
expect 0 "setup-zkey (BN254)" "BN254, 8 constraints" \
    "$cuzk" setup-zkey "$br" "$dir/bdev.zkey" --vk "$dir/bdev.vkey.json" --seed 7
grep -q '"curve": "bn128"' "$dir/bdev.vkey.json" || fail "setup-zkey's BN254 vk names no bn128"
"$cuzk" prove-zkey "$dir/bdev.zkey" "$bw" "$dir/bdp.json" "$dir/bdpub.json" --r1cs "$br" || fail "prove with BN254 dev key"
expect 0 "verify BN254 dev key's proof" "OK" "$cuzk" verify-zkey "$dir/bdev.vkey.json" "$dir/bdpub.json" "$dir/bdp.json"
if [ -n "$snarkjs" ]; then
    out=$("$snarkjs" groth16 verify "$dir/bdev.vkey.json" "$dir/bdpub.json" "$dir/bdp.json" 2>&1) ||
        fail "snarkjs verify (BN254 dev key): $out"
fi
if [ -e "$alias" ]; then
    "$alias" "$bz" "$bw" "$dir/bn3.json" "$dir/bnpub3.json" || fail "rapidsnark alias (BN254)"
    expect 0 "verify the alias's BN254 proof" "OK" "$cuzk" verify-zkey "$bvk" "$dir/bnpub3.json" "$dir/bn3.json"
fi
# Mixed curves: a BLS12-381 witness or .r1cs with the BN254 key, a proof under the other vk.
expect 1 "BLS12-381 witness, BN254 key" "chain8.wtns: section 1 (header) prime at byte" \
    "$cuzk" prove-zkey "$bz" "$wtns" "$dir/x.json" "$dir/y.json"
expect 1 "BN254 witness, BLS12-381 key" "not bls12381's: the files of one proof must all be on one curve" \
    "$cuzk" prove-zkey "$zkey" "$bw" "$dir/x.json" "$dir/y.json"
expect 1 "BLS12-381 r1cs, BN254 key" "chain8.r1cs: section 1 (header) prime" \
    "$cuzk" prove-zkey "$bz" "$bw" "$dir/x.json" "$dir/y.json" --r1cs "$r1cs"
expect 1 "BLS12-381 proof, BN254 vk" 'curve: expected "bn128", found "bls12381"' \
    "$cuzk" verify-zkey "$bvk" "$dir/public.json" "$dir/proof.json"
# Off by one (value 4) and flipped bytes in each BN254 file.
bw2=$(section_offset "$bw" witness)
flip "$bw" $((bw2 + 4 * 32)) "$dir/bad_bn.wtns"
expect 1 "off-by-one BN254 witness with --r1cs" "constraint 0 of 8 does not hold" \
    "$cuzk" prove-zkey "$bz" "$dir/bad_bn.wtns" "$dir/bp.json" "$dir/bpub.json" --r1cs "$br"
expect 1 "off-by-one BN254 witness" "does not verify" "$cuzk" prove-zkey "$bz" "$dir/bad_bn.wtns" "$dir/bp.json" "$dir/bpub.json"
[ -e "$dir/bp.json" ] && fail "a proof was written for an unsatisfied BN254 witness"
ba=$(section_offset "$bz" A)
flip "$bz" $((ba + 2 * 64 + 20)) "$dir/bad_bn.zkey"
expect 1 "flipped BN254 zkey byte" "section 5 (A) point 2 at byte $((ba + 2 * 64))" \
    "$cuzk" prove-zkey "$dir/bad_bn.zkey" "$bw" "$dir/x.json" "$dir/y.json"
bw1=$(section_offset "$bw" header)
flip "$bw" $((bw1 + 4)) "$dir/bad_bn2.wtns"
expect 1 "flipped BN254 wtns byte" "bad_bn2.wtns: section 1 (header) prime at byte $((bw1 + 4))" \
    "$cuzk" prove-zkey "$bz" "$dir/bad_bn2.wtns" "$dir/x.json" "$dir/y.json"
bh=$(section_offset "$br" header)
flip "$br" $((bh + 4 + 32)) "$dir/bad_bn.r1cs"
expect 1 "flipped BN254 r1cs byte (nWires 10)" "bad_bn.r1cs: section 2 (constraints)" \
    "$cuzk" prove-zkey "$bz" "$bw" "$dir/x.json" "$dir/y.json" --r1cs "$dir/bad_bn.r1cs"
expect 0 "inspect BN254 zkey" "Groth16 on bn128: nVars 11 (ONE included), nPublic 2, domainSize 16" "$cuzk" inspect "$bz"
expect 0 "inspect BN254 wtns" "witness on bn128: 11 values" "$cuzk" inspect "$bw"
expect 0 "inspect BN254 r1cs" "R1CS on bn128: 8 constraints, 11 wires" "$cuzk" inspect "$br"
echo "cli_zkey: all checks passed"
