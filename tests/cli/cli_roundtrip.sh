#!/usr/bin/env bash
# End to end through the command line: setup -> prove (2 partitions) -> verify -> inspect,
# then the failures a user meets: a flipped proof byte, a truncated proof file, a wrong
# public input and a corrupted parameters file each give exit 1 and a message naming it.
set -u
cuzk=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$cuzk" setup --circuit random-dense --size 200 --inputs 3 --out "$dir/keys" >/dev/null 2>&1 || fail "setup"
"$cuzk" prove --keys "$dir/keys" --partitions 2 --out "$dir/p.bin" >/dev/null || fail "prove"
"$cuzk" verify --vk "$dir/keys/vk" --proof "$dir/p.bin" --public "$dir/p.bin.public.json" >/dev/null || fail "verify"
"$cuzk" inspect "$dir/keys/params" | grep -q "b_g2" || fail "inspect"

# A flipped byte in the second proof: rejected (decoder or pairing), exit 1.
cp "$dir/p.bin" "$dir/flip.bin"
printf '\x5a' | dd of="$dir/flip.bin" bs=1 seek=230 conv=notrunc 2>/dev/null
out=$("$cuzk" verify --vk "$dir/keys/vk" --proof "$dir/flip.bin" --public "$dir/p.bin.public.json" 2>&1) && fail "flipped byte accepted"
echo "$out" | grep -qE "proof\[1\]|proof 1: INVALID" || fail "flipped byte: unexpected message: $out"

head -c 300 "$dir/p.bin" > "$dir/short.bin"
out=$("$cuzk" verify --vk "$dir/keys/vk" --proof "$dir/short.bin" --public "$dir/p.bin.public.json" 2>&1) && fail "truncated proof accepted"
echo "$out" | grep -q "not a multiple of 192" || fail "truncated proof: unexpected message: $out"

# Swap the first two public inputs of partition 0 (one value a line, each with a comma).
awk 'NR==3{a=$0;next} NR==4{print;print a;next} {print}' "$dir/p.bin.public.json" > "$dir/bad.json"
cmp -s "$dir/bad.json" "$dir/p.bin.public.json" && fail "test setup: public inputs unchanged"
out=$("$cuzk" verify --vk "$dir/keys/vk" --proof "$dir/p.bin" --public "$dir/bad.json" 2>&1) && fail "wrong public input accepted"
echo "$out" | grep -q "INVALID" || fail "wrong input: unexpected message: $out"

head -c 5000 "$dir/keys/params" > "$dir/keys/params.cut" && mv "$dir/keys/params.cut" "$dir/keys/params"
out=$("$cuzk" prove --keys "$dir/keys" --out "$dir/q.bin" 2>&1) && fail "truncated params accepted"
echo "$out" | grep -q "params" || fail "truncated params: unexpected message: $out"

out=$("$cuzk" setup --circuit no-such-circuit --out "$dir/x" 2>&1) && fail "unknown circuit accepted"
echo "$out" | grep -q "unknown circuit 'no-such-circuit'" || fail "unknown circuit: unexpected message: $out"
echo "cli round trip: ok"
