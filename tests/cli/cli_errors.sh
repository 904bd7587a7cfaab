#!/usr/bin/env bash
# The built-in commands' refusals: each bad input gives its specific exit code (1 for a bad
# file or value found while running, 2 for an argument refused before any work, 105 for
# CLI11's option checks), never a crash (139, 134), and a message naming what and where.
# Tiny circuits only: the whole script takes seconds.
set -u
cuzk=$1
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
# refuses_before <what> <needle> <command...>: exit 1 with the needle, before any work
# (none of the lines that setup, proving or sealing print on their way).
refuses_before() {
    expect 1 "$@"
    echo "$out" | grep -qE "^circuit |setup: .* done|^loaded keys|^partition 0|^\[ *[0-9.]+ s\]" &&
        fail "$1: refused only after work: $out"
    return 0
}

"$cuzk" setup --circuit random-dense --size 20 --inputs 2 --out "$dir/keys" >"$dir/setup.txt" 2>&1 || fail "setup: $(cat "$dir/setup.txt")"
# --size is the constraint count, the input constraints included.
grep -q "random-dense(20): 20 constraints, 3 inputs" "$dir/setup.txt" || fail "size is not the constraint count: $(cat "$dir/setup.txt")"
"$cuzk" prove --keys "$dir/keys" --out "$dir/p.bin" >/dev/null || fail "prove"
v=(verify --vk "$dir/keys/vk" --proof "$dir/p.bin")
"$cuzk" "${v[@]}" --public "$dir/p.bin.public.json" >/dev/null || fail "verify"

# Malformed public inputs: each shape named, none read as "any number of proofs".
pub() { printf '%s' "$1" > "$dir/pub.json"; }
pub '[]';                expect 1 "public []" "no public inputs (an empty array)" "$cuzk" "${v[@]}" --public "$dir/pub.json"
pub 'null';              expect 1 "public null" "found null" "$cuzk" "${v[@]}" --public "$dir/pub.json"
pub '{"a": 1}';          expect 1 "public object" "found object" "$cuzk" "${v[@]}" --public "$dir/pub.json"
pub '"1"';               expect 1 "public string" "found string" "$cuzk" "${v[@]}" --public "$dir/pub.json"
pub '["1", "2"]';        expect 1 "public flat array" "wrap it in [ ]" "$cuzk" "${v[@]}" --public "$dir/pub.json"
pub '[["1"]]';           expect 1 "public too few" "[0] has 1 values, expected 2" "$cuzk" "${v[@]}" --public "$dir/pub.json"
pub '[["1","2","3"]]';   expect 1 "public too many" "[0] has 3 values, expected 2" "$cuzk" "${v[@]}" --public "$dir/pub.json"
pub '[["1", 2]]';        expect 1 "public number" "[0][1] is number, expected a decimal string" "$cuzk" "${v[@]}" --public "$dir/pub.json"
pub '[["1", "x2"]]';     expect 1 "public non-numeric" "[0][1] is not a decimal integer below r" "$cuzk" "${v[@]}" --public "$dir/pub.json"
r=52435875175126190479447740508185965837690552500527637822603658699938581184513
pub "[[\"1\", \"$r\"]]"; expect 1 "public = r" "[0][1] is not a decimal integer below r" "$cuzk" "${v[@]}" --public "$dir/pub.json"
pub '[["1", "2"], ["3", "4"]]'; expect 1 "more inputs than proofs" "expected 2 proofs (partitions), found 1" "$cuzk" "${v[@]}" --public "$dir/pub.json"
pub '[[';                expect 1 "public not JSON" "$dir/pub.json: not JSON" "$cuzk" "${v[@]}" --public "$dir/pub.json"
expect 1 "public missing" "$dir/nope.json: cannot open" "$cuzk" "${v[@]}" --public "$dir/nope.json"
expect 1 "vk missing" "$dir/nope.vk: cannot open" "$cuzk" verify --vk "$dir/nope.vk" --proof "$dir/p.bin" --public "$dir/p.bin.public.json"

# Params with a point on the curve but outside the prime-order subgroup (x = 4, the
# smallest x > 0 on the curve; tests/formats StrayPoint checks it) in place of h[0]: the
# proof made with it fails its check, the params are then read with the subgroup check,
# which names the point, and no proof is written.
cp -r "$dir/keys" "$dir/bad"
h=$("$cuzk" inspect "$dir/keys/params" | awk '$1 == "h" {print $3}')
[ -n "$h" ] || fail "inspect: no h section"
stray=0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000040a989badd40d6212b33cffc3f3763e9bc760f988c9926b26da9dd85e928483446346b8ed00e1de5d5ea93e354abe706c
echo "$stray" | xxd -r -p | dd of="$dir/bad/params" bs=1 seek="$h" conv=notrunc 2>/dev/null
expect 1 "params point outside the subgroup" "h[0] at byte $h: point is not in the prime-order subgroup" \
    "$cuzk" prove --keys "$dir/bad" --out "$dir/bad.bin"
[ -e "$dir/bad.bin" ] && fail "a params point outside the subgroup: proof written"
# Valid points in the wrong places (h[0] and h[1] swapped): the proof made with them is
# checked before it is written, and refused.
cp "$dir/keys/params" "$dir/bad/params"
dd if="$dir/keys/params" of="$dir/bad/params" bs=1 skip="$h" seek=$((h + 96)) count=96 conv=notrunc 2>/dev/null
dd if="$dir/keys/params" of="$dir/bad/params" bs=1 skip=$((h + 96)) seek="$h" count=96 conv=notrunc 2>/dev/null
cmp -s "$dir/keys/params" "$dir/bad/params" && fail "test setup: params unchanged"
expect 1 "params with swapped points" "the proof does not verify" "$cuzk" prove --keys "$dir/bad" --out "$dir/bad.bin"
[ -e "$dir/bad.bin" ] && fail "params with swapped points: proof written"

# random-dense's size and inputs, checked before setup.
for inputs in 10 11 20 50; do
    refuses_before "size 10, $inputs inputs" "needs a size (constraint count) of at least" \
        "$cuzk" setup --circuit random-dense --size 10 --inputs "$inputs" --out "$dir/x"
done
refuses_before "size 64, 64 inputs" "at least 87, got 64" "$cuzk" setup --circuit random-dense --size 64 --inputs 64 --out "$dir/x"
"$cuzk" setup --circuit random-dense --size 87 --inputs 64 --out "$dir/k87" >/dev/null 2>&1 || fail "setup at the smallest size for 64 inputs"
# Readable ranges (CLI11's PositiveNumber printed the double maximum in full).
expect 105 "size 0" "--size: must be an integer in [1, 2^28], got '0'" "$cuzk" setup --size 0
[ ${#out} -lt 200 ] || fail "size 0: message of ${#out} characters: $out"
expect 105 "demo size 0" "[1, 2^28]" "$cuzk" demo --size 0
expect 105 "partitions 0" "[1, 2^16]" "$cuzk" prove --partitions 0
expect 105 "seconds 0" "--seconds: must be a number of seconds" "$cuzk" bench --seconds 0

# demo: every argument checked before the self-check and benchmark.
expect 2 "demo unknown circuit" "unknown circuit 'foo'" "$cuzk" demo --circuit foo
echo "$out" | grep -qE "self-check|benchmark" && fail "demo --circuit foo ran first: $out"
expect 2 "demo unknown backend" "unknown backend 'gpu'" "$cuzk" demo --backend gpu
expect 2 "demo random-dense too small" "at least 7" "$cuzk" demo --circuit random-dense --size 3

# Files of other formats are named for what they look like; inspect reads circom's files
# (tests/cli/cli_zkey.sh) and names where a malformed one goes wrong.
for magic in zkey wtns r1cs; do
    { printf '%s' "$magic"; head -c 2000 /dev/zero; } > "$dir/x.$magic"
    expect 1 "inspect .$magic" "$dir/x.$magic: file header at byte 4: version 0; cuzk reads .$magic version" "$cuzk" inspect "$dir/x.$magic"
done
expect 1 "inspect the shape file" "cuzk shape file" "$cuzk" inspect "$dir/keys/shape.r1cs"
expect 1 "verify with a .zkey as the vk" "not a bellperson .vk file" "$cuzk" verify --vk "$dir/x.zkey" --proof "$dir/p.bin" --public "$dir/p.bin.public.json"
expect 1 "inspect garbage" "neither a bellperson .params" "$cuzk" inspect "$dir/setup.txt"
expect 1 "inspect missing" "$dir/none: cannot open" "$cuzk" inspect "$dir/none"

# Files named in errors.
mkdir -p "$dir/empty"
expect 1 "prove without circuit.json" "$dir/empty/circuit.json: cannot open" "$cuzk" prove --keys "$dir/empty" --out "$dir/q.bin"
cp -r "$dir/keys" "$dir/noshape" && rm "$dir/noshape/shape.r1cs"
expect 1 "prove without shape" "$dir/noshape/shape.r1cs" "$cuzk" prove --keys "$dir/noshape" --out "$dir/q.bin"
cp -r "$dir/keys" "$dir/badshape" && printf 'garbage' > "$dir/badshape/shape.r1cs"
expect 1 "prove with a bad shape" "$dir/badshape/shape.r1cs: bad magic" "$cuzk" prove --keys "$dir/badshape" --out "$dir/q.bin"
# Keys whose circuit.json no longer gives the circuit of shape.r1cs (another size).
cp -r "$dir/keys" "$dir/other" && sed -i 's/"size": 20/"size": 21/' "$dir/other/circuit.json"
grep -q '"size": 21' "$dir/other/circuit.json" || fail "test setup: circuit.json unchanged: $(cat "$dir/other/circuit.json")"
expect 1 "prove with another circuit's keys" "but $dir/other/shape.r1cs has 20 constraints" \
    "$cuzk" prove --keys "$dir/other" --out "$dir/q.bin"

# Outputs that cannot be written: refused before any work.
refuses_before "prove --out in a missing directory" "$dir/no/such/p.bin: cannot write the output there" \
    "$cuzk" prove --keys "$dir/keys" --out "$dir/no/such/p.bin"
refuses_before "prove --out a directory" "it is a directory" "$cuzk" prove --keys "$dir/keys" --out "$dir/keys"
touch "$dir/file"
refuses_before "prove --format snarkjs --out under a file" "$dir/file/sj: cannot create the output directory" \
    "$cuzk" prove --keys "$dir/keys" --format snarkjs --out "$dir/file/sj"
refuses_before "setup --out under a file" "$dir/file/k: cannot create the output directory" \
    "$cuzk" setup --circuit random-dense --size 20 --inputs 2 --out "$dir/file/k"
refuses_before "seal --out in a missing directory" "$dir/no/c1.json: cannot write the output there" \
    "$cuzk" seal --sector-size 2KiB --out "$dir/no/c1.json"
refuses_before "gen-vanilla --out in a missing directory" "$dir/no/c1.json: cannot write the output there" \
    "$cuzk" gen-vanilla --sector-size 2KiB --out "$dir/no/c1.json"
"$cuzk" gen-vanilla --sector-size 2KiB --out "$dir/c1.json" >/dev/null 2>&1 || fail "gen-vanilla"
refuses_before "prove porep --out in a missing directory" "$dir/no/p.bin: cannot write the output there" \
    "$cuzk" prove porep --c1 "$dir/c1.json" --param-dir "$dir/empty" --out "$dir/no/p.bin"
if "$cuzk" client --help >/dev/null 2>&1; then  # built with the daemon
    expect 1 "client prove --out in a missing directory" "$dir/no/p.bin: cannot write the output there" \
        "$cuzk" client --address "unix:$dir/no.sock" prove --circuit sha256-chain --size 1 --out "$dir/no/p.bin"
    expect 1 "client await --vk in a missing directory" "$dir/no/vk: cannot write the output there" \
        "$cuzk" client --address "unix:$dir/no.sock" await job-1 --vk "$dir/no/vk"
fi

# CUZK_THREADS: refused when not a count, warned about above the cores.
expect 2 "CUZK_THREADS=lots" "CUZK_THREADS=\"lots\": expected a thread count in [1, 1024]" env CUZK_THREADS=lots "$cuzk" info
expect 2 "CUZK_THREADS=0" "CUZK_THREADS=\"0\"" env CUZK_THREADS=0 "$cuzk" info
cores=$(nproc)
expect 0 "CUZK_THREADS above the cores" "warning: CUZK_THREADS=1000 is above the $cores cores" env CUZK_THREADS=1000 "$cuzk" info
[ "$(echo "$out" | grep -c CUZK_THREADS)" = 1 ] || fail "CUZK_THREADS warning not one line: $out"
echo "cli errors: ok"
