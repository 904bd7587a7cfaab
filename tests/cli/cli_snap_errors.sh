#!/usr/bin/env bash
# SnapDeals commands refuse bad input with a message naming it: no keys (the v28 file named),
# a truncated proof, a bad commitment, sizes encode cannot hold, an unknown gen-vanilla kind;
# gen-vanilla --kind snap-deals-update writes one vanilla proof a partition.
set -u
cuzk=$1
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
expect() {  # expect <needle> <command...>: fails, and its output names the needle
    local needle=$1
    shift
    "$@" > "$dir/out.txt" 2>&1 && fail "accepted: $*"
    grep -qF -- "$needle" "$dir/out.txt" || fail "'$needle' not in: $(cat "$dir/out.txt")"
}
"$cuzk" gen-vanilla --kind snap-deals-update --sector-size 8MiB --seed 3 --out "$dir/v" > "$dir/gen.txt" 2>&1 \
    || fail "gen-vanilla: $(cat "$dir/gen.txt")"
[ "$(ls "$dir/v" | wc -l)" -eq 4 ] || fail "8 MiB has 4 partitions: $(ls "$dir/v")"
val() { awk -v k="$1" '$1 == k { print $2 }' "$dir/gen.txt"; }
comms=(--sector-size 8MiB --comm-r-old "$(val comm_r_old)" --comm-d-new "$(val comm_d_new)" --param-dir "$dir/none")
expect "v28-empty-sector-update-merkletree-poseidon_hasher-8-0-0-92180959" \
    "$cuzk" snap prove "${comms[@]}" --comm-r-new "$(val comm_r_new)" --vanilla-dir "$dir/v" --out "$dir/p.bin"
expect "partition 0: comm_r_new: is not Poseidon2" \
    "$cuzk" snap prove "${comms[@]}" --comm-r-new "$(val comm_r_old)" --vanilla-dir "$dir/v" --out "$dir/p.bin"
rm "$dir/v/vanilla-3.bin"
expect "vanilla-3.bin: cannot open" \
    "$cuzk" snap prove "${comms[@]}" --comm-r-new "$(val comm_r_new)" --vanilla-dir "$dir/v" --out "$dir/p.bin"
head -c 700 /dev/zero > "$dir/short.bin"
expect "700 bytes, expected 768" \
    "$cuzk" snap verify "${comms[@]}" --comm-r-new "$(val comm_r_new)" --proof "$dir/short.bin"
expect "--comm-r-new: expected 64 hex digits" \
    "$cuzk" snap verify "${comms[@]}" --comm-r-new abc --proof "$dir/short.bin"
expect "encoding holds the sector" "$cuzk" snap encode --sector-size 32GiB --out-dir "$dir/e"
expect "--kind 'nope'" "$cuzk" gen-vanilla --kind nope --sector-size 2KiB --out "$dir/x"
echo "OK"
