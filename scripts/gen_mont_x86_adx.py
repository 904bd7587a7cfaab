#!/usr/bin/env python3
"""Generates include/cuzk/ff/mont_x86_adx.hpp: the MULX/ADCX/ADOX Montgomery routines.

    scripts/gen_mont_x86_adx.py                  writes the header to stdout
    scripts/gen_mont_x86_adx.py PATH             writes it to PATH
    scripts/gen_mont_x86_adx.py --check PATH     exit 1, with a diff, unless PATH equals the output

The asm bodies are generated, one function per routine and limb count (4: Fr, 6: Fp); the
prose and the C++ around them are kept here verbatim (TEXT), so that the script alone
reproduces the committed header byte for byte. Trailing comments are aligned as
clang-format aligns them (two columns after the longest line of a run of commented lines),
so the output is clang-formatted as it stands. Python 3 standard library only.
"""
import difflib
import sys


def q(ins):
    return '        "' + ins + '\\n\\t"'


class Body:
    def __init__(self, opening):
        self.lines = [(opening, None)]

    def raw(self, text):  # a line of its own (a comment line)
        self.lines.append((text, None))

    def __call__(self, ins, comment=None):
        self.lines.append((q(ins), comment))

    def text(self):
        # clang-format aligns the trailing comments of consecutive lines two columns after
        # the longest code among them.
        out, i, n = [], 0, len(self.lines)
        while i < n:
            if self.lines[i][1] is None:
                out.append(self.lines[i][0])
                i += 1
                continue
            j = i
            while j < n and self.lines[j][1] is not None:
                j += 1
            col = max(len(c) for c, _ in self.lines[i:j]) + 2
            for c, m in self.lines[i:j]:
                out.append(c.ljust(col) + "// " + m)
            i = j
        return "\n".join(out) + "\n"


def off(k):
    return str(8 * k)


def mul(N):
    b = Body("    __asm__ volatile(")
    X = lambda i: "%%[x%d]" % (i % (N + 1))
    b.raw("        // row 0: t = b * a[0] (one ADD chain, t starts at zero); a[0] arrives in rdx")
    b("mulxq 0(%[b]), %[x0], %[x1]")
    for j in range(1, N):
        b("mulxq %s(%%[b]), %%[lo], %%[x%d]" % (off(j), j + 1))
        b("%s %%[lo], %%[x%d]" % ("addq" if j == 1 else "adcq", j))
    b("adcq $0, %%[x%d]" % N)
    for i in range(N):
        if i > 0:
            f = X(i - 1)
            b("movq %s(%%[a]), %%%%rdx" % off(i), "row %d: t += b * a[%d]; lo words on OF, hi words on CF" % (i, i))
            b("xorl %%k%s, %%k%s" % (f[1:], f[1:]), "clears CF and OF")
            for j in range(N - 1):
                b("mulxq %s(%%[b]), %%[lo], %%[hi]" % off(j))
                b("adoxq %%[lo], %s" % X(i + j))
                b("adcxq %%[hi], %s" % X(i + j + 1))
            b("mulxq %s(%%[b]), %%[lo], %s" % (off(N - 1), f))
            b("adoxq %%[lo], %s" % X(i + N - 1))
            if N == 4:
                b("adcxq %%[z], %s" % f)
                b("adoxq %%[z], %s" % f)
            else:
                b("movq $0, %[lo]", "mov keeps the flags")
                b("adcxq %%[lo], %s" % f)
                b("adoxq %%[lo], %s" % f)
        b("movq %s, %%%%rdx" % X(i), "row %d: m = t[0] * inv; t = (t + m * p) / 2^64" % i)
        b("imulq %[inv], %%rdx")
        b("xorl %k[lo], %k[lo]", "clears CF and OF")
        b("mulxq 0(%[p]), %[lo], %[hi]")
        b("adcxq %s, %%[lo]" % X(i), "low word becomes zero, only the carry is kept")
        b("adoxq %%[hi], %s" % X(i + 1))
        for j in range(1, N):
            b("mulxq %s(%%[p]), %%[lo], %%[hi]" % off(j))
            b("adcxq %%[lo], %s" % X(i + j))
            if j < N - 1:
                b("adoxq %%[hi], %s" % X(i + j + 1))
            elif N == 4:
                b("adoxq %%[hi], %s" % X(i + N))
                b("adcxq %%[z], %s" % X(i + N), "no carry out: p has a spare top bit")
            else:
                b("movq $0, %[lo]")
                b("adoxq %%[hi], %s" % X(i + N))
                b("adcxq %%[lo], %s" % X(i + N), "no carry out: p has a spare top bit")
    dest = ["%%[x%d]" % (N - 1), "%[lo]", "%[hi]", "%%rdx", "%[a]", "%[b]"][:N]
    subtract(b, [X(N + k) for k in range(N)], dest, "s = t - p", "borrow: t was already below p")
    return b.text()


def subtract(b, src, dest, c_move, c_cmov):
    for k in range(len(src)):
        b("movq %s, %s" % (src[k], dest[k]), c_move if k == 0 else None)
    for k in range(len(src)):
        b("%s %s(%%[p]), %s" % ("subq" if k == 0 else "sbbq", off(k), dest[k]))
    for k in range(len(src)):
        b("cmovcq %s, %s" % (src[k], dest[k]), c_cmov if k == 0 else None)


def reduce_row(b, R, k, N, label, clear_comment):
    b("movq %s, %%%%rdx" % R(k), label)
    b("imulq %[inv], %%rdx")
    b("xorl %k[lo], %k[lo]", clear_comment)
    b("mulxq 0(%[p]), %[lo], %[hi]")
    b("adcxq %s, %%[lo]" % R(k), "low word becomes zero, only the carry is kept")
    b("adoxq %%[hi], %s" % R(k + 1))
    for j in range(1, N):
        b("mulxq %s(%%[p]), %%[lo], %%[hi]" % off(j))
        b("adcxq %%[lo], %s" % R(k + j))
        if j < N - 1:
            b("adoxq %%[hi], %s" % R(k + j + 1))


def sqr(N):
    b = Body("    __asm__ volatile(")
    X = lambda i: "%%[x%d]" % (i % (N + 1))
    pos = lambda p: X(p - 1)  # the register of the product's word p in phase 1
    b("movq 0(%[a]), %%rdx", "phase 1: cross products a_i*a_j (i<j), row 0 with one ADD chain")
    b("mulxq 8(%[a]), %[x0], %[x1]")
    for j in range(2, N):
        b("mulxq %s(%%[a]), %%[lo], %%[x%d]" % (off(j), j))
        b("%s %%[lo], %%[x%d]" % ("addq" if j == 2 else "adcq", j - 1))
    b("adcq $0, %%[x%d]" % (N - 1))
    b("movq %[x0], 8(%[w])")
    b("movq %[x1], 16(%[w])")
    for i in range(1, N - 1):
        f = X(N + i - 1)
        b("movq %s(%%[a]), %%%%rdx" % off(i),
          "row %d: += a_%d * a_%d..a_%d, lo words on OF, hi words on CF" % (i, i, i + 1, N - 1))
        b("xorl %%k%s, %%k%s" % (f[1:], f[1:]))
        for j in range(i + 1, N - 1):
            b("mulxq %s(%%[a]), %%[lo], %%[hi]" % off(j))
            b("adoxq %%[lo], %s" % pos(i + j))
            b("adcxq %%[hi], %s" % pos(i + j + 1))
        b("mulxq %s(%%[a]), %%[lo], %s" % (off(N - 1), f))
        b("adoxq %%[lo], %s" % pos(i + N - 1))
        b("movq $0, %[lo]")
        b("adcxq %%[lo], %s" % f)
        b("adoxq %%[lo], %s" % f)
        b("movq %s, %s(%%[w])" % (pos(2 * i + 1), off(2 * i + 1)))
        b("movq %s, %s(%%[w])" % (pos(2 * i + 2), off(2 * i + 2)))
    last = (2 * N - 3) % (N + 1)
    T = "%%[x%d]" % last
    r = ["%%[x%d]" % ((last + 1 + k) % (N + 1)) for k in range(N)]
    b("xorl %%k%s, %%k%s" % (r[0][1:], r[0][1:]), "phase 2: w = 2*c + squares; doubling on CF, squares on OF")
    for i in range(N):
        b("movq %s(%%[a]), %%%%rdx" % off(i))
        b("mulxq %%rdx, %[lo], %[hi]")
        for p, half in ((2 * i, "lo"), (2 * i + 1, "hi")):
            if p == 0:
                reg = r[0]
            elif p < N:
                reg = r[p]
                b("movq %s(%%[w]), %s" % (off(p), reg))
            elif p < 2 * N - 1:
                reg = T
                b("movq %s(%%[w]), %s" % (off(p), reg))
            else:
                reg = T
                b("movq $0, %s" % reg)
            b("adcxq %s, %s" % (reg, reg))
            b("adoxq %%[%s], %s" % (half, reg))
            if p >= N:
                b("movq %s, %s(%%[w])" % (reg, off(p)))
    R = lambda k: r[k % N]
    for k in range(N):
        reduce_row(b, R, k, N, "phase 3, row %d: m = t[0] * inv; t = (t + m*p) / 2^64" % k, None)
        b("movq $0, %s" % R(k))
        b("adoxq %%[hi], %s" % R(k))
        b("movq $0, %[lo]")
        b("adcxq %%[lo], %s" % R(k))
    for k in range(N):
        b("%s %s(%%[w]), %s" % ("addq" if k == 0 else "adcq", off(N + k), R(k)),
          "phase 4: t = u + w_high < 2p" if k == 0 else None)
    dest = [T, "%[lo]", "%[hi]", "%%rdx", "%[a]", "%[w]"][:N]
    subtract(b, [R(k) for k in range(N)], dest, "phase 5: s = t - p; keep t on borrow", None)
    return b.text()


def wide(N):
    b = Body("    __asm__ volatile(")
    b.lines[0] = ("    __asm__ volatile(", "volatile: the product leaves through memory only")
    X = lambda i: "%%[x%d]" % (i % (N + 1))
    b("movq 0(%[b]), %%rdx", "row 0: (x0..x%d) = a * b[0], one ADD chain" % N)
    b("mulxq 0(%[a]), %[x0], %[x1]")
    for j in range(1, N):
        b("mulxq %s(%%[a]), %%[lo], %%[x%d]" % (off(j), j + 1))
        b("%s %%[lo], %%[x%d]" % ("addq" if j == 1 else "adcq", j))
    b("adcq $0, %%[x%d]" % N)
    b("movq %[x0], 0(%[w])", "limb 0 of the product is final")
    for i in range(1, N):
        f = X(i - 1)
        b("movq %s(%%[b]), %%%%rdx" % off(i), "row %d: += a * b[%d]; lo words on OF, hi words on CF" % (i, i))
        b("xorl %%k%s, %%k%s" % (f[1:], f[1:]), "clears CF and OF; the freed register is the new top word")
        for j in range(N - 1):
            b("mulxq %s(%%[a]), %%[lo], %%[hi]" % off(j))
            b("adoxq %%[lo], %s" % X(i + j))
            b("adcxq %%[hi], %s" % X(i + j + 1))
        b("mulxq %s(%%[a]), %%[lo], %s" % (off(N - 1), f))
        b("adoxq %%[lo], %s" % X(i + N - 1))
        b("movq $0, %[lo]", "mov keeps the flags")
        b("adcxq %%[lo], %s" % f)
        b("adoxq %%[lo], %s" % f)
        if i < N - 1:
            b("movq %s, %s(%%[w])" % (X(i), off(i)), "limb %d of the product is final" % i)
    for k in range(N + 1):
        b("movq %s, %s(%%[w])" % (X(N - 1 + k), off(N - 1 + k)))
    return b.text()


def redc(N):
    b = Body("    __asm__ volatile(")
    R = lambda k: "%%[x%d]" % (k % N)
    for k in range(N):
        b("movq %s(%%[w]), %s" % (off(k), R(k)), "u = low half of w" if k == 0 else None)
    for k in range(N):
        reduce_row(b, R, k, N, "row %d: m = u[0] * inv; u = (u + m*p) / 2^64" % k, "clears CF and OF")
        b("movq $0, %s" % R(k), "the freed register is the new top word")
        b("adoxq %%[hi], %s" % R(k))
        b("movq $0, %[lo]")
        b("adcxq %%[lo], %s" % R(k))
    for k in range(N):
        b("%s %s(%%[w]), %s" % ("addq" if k == 0 else "adcq", off(N + k), R(k)),
          "t = u + w_high < 2p" if k == 0 else None)
    dest = ["%[lo]", "%[hi]", "%%rdx", "%[w]", "%[s4]", "%[s5]"][:N]
    subtract(b, [R(k) for k in range(N)], dest, "s = t - p; keep t on borrow", None)
    return b.text()


def add(N):
    b = Body("    __asm__ volatile(")
    t = ["%%[t%d]" % k for k in range(N)]
    for k in range(N):
        b("movq %s(%%[a]), %s" % (off(k), t[k]), "t = a + b (< 2p, no carry out)" if k == 0 else None)
    for k in range(N):
        b("%s %s(%%[b]), %s" % ("addq" if k == 0 else "adcq", off(k), t[k]))
    dest = ["%%[s%d]" % k for k in range(N - 2)] + ["%[a]", "%[b]"]
    subtract(b, t, dest, "s = t - p", "borrow: t was below p, keep it")
    return b.text()


def sub(N):
    b = Body("    __asm__ volatile(")
    t = ["%%[t%d]" % k for k in range(N)]
    for k in range(N):
        b("movq %s(%%[a]), %s" % (off(k), t[k]), "t = a - b" if k == 0 else None)
    for k in range(N):
        b("%s %s(%%[b]), %s" % ("subq" if k == 0 else "sbbq", off(k), t[k]))
    b("cmovcq %[p], %[z]", "borrow: add p back, else add zeros (cmov and lea keep the flags)")
    for k in range(N):
        b("%s %s(%%[z]), %s" % ("addq" if k == 0 else "adcq", off(k), t[k]))
    return b.text()


ROUTINES = [(mul, 4), (mul, 6), (sqr, 4), (sqr, 6), (wide, 4), (redc, 4), (add, 4), (sub, 4), (wide, 6), (redc, 6),
            (add, 6), (sub, 6)]


# The header around the asm bodies: TEXT[k] precedes ROUTINES[k]; the last one ends the file.
TEXT = [
    r'''// x86-64 Montgomery multiplication with MULX/ADCX/ADOX (two independent carry chains).
// Chosen at compile time when the compiler targets BMI2 and ADX; the portable CIOS in
// mont_portable.hpp stays built and is the reference it is tested against
// (tests/ff/test_mont_adx.cpp).
//
// Algorithm: no-carry CIOS (Koc, Acar, Kaliski, "Analyzing and comparing Montgomery
// multiplication algorithms", 1996, with the carry word dropped as in gnark-crypto,
// "Faster big-integer modular multiplication for most moduli", 2020), which needs
// p[N-1] < 2^63 - 1; the BLS12-381 and BN254 moduli qualify (Field static_asserts it).
// Per row i (N rows):
//   t += b * a[i]:            N MULX; the low words go on the OF chain (ADOX) and the
//                             high words on the CF chain (ADCX), so the two additions
//                             run in parallel instead of serialising on one carry flag.
//   m = t[0] * inv, t = (t + m*p) >> 64:  1 IMUL, N MULX, same two chains.
// The register that held t[0] becomes the next row's top word, so nothing moves.
// t < 2p at the end; one subtraction and CMOVs (no branch) reduce it to [0, p).
// Cost: 2N^2 MULX, 1 IMUL per row, ~4N^2 ADCX/ADOX. MULX reads a, b and p from memory,
// so N + 7 registers suffice (the frame pointer stays free for -fno-omit-frame-pointer).
// The asm reads a, b, p through pointers and declares a "memory" clobber rather than
// array "m" operands: those need extra address registers and fail to allocate at -O0
// or with a frame pointer; the clobber measured no slower (91.4 TSC ticks either way).
// Every statement is volatile: GCC 12 at -O3 otherwise took two statements with different
// pointer operands for the same computation and kept one (r = r + r in a loop beside the
// same chain unrolled; FieldTest.AdditionChainsMatchMultiplication).
// Output registers are stored to r after the asm, so r may alias a or b.
// The 4-limb routine keeps a zero in a register for the carry fix-ups (Fr 48.5 -> 46.4
// TSC ticks); the 6-limb one has no register to spare under ASan with a frame pointer
// and materialises the zero with MOV (which, unlike XOR, leaves the flags alone).
//
// Measured on the 2-core AMD EPYC (Zen 4) dev VM, dependent chain a = a*b, min of 30
// runs of 20k (TSC at 2.6 GHz): Fp 91.3 ticks (35.1 ns; portable CIOS 156), Fr 46-50
// ticks (18-19 ns; portable 84). blst (supranational/blst master, its mulx assembly)
// in the same harness: Fp 92.1, Fr 49.9 ticks. Fp looks bound by the ALU ports (~340 uops,
// 144 of them MULX halves) plus the final subtraction and the store-to-load round trip
// between dependent calls: dropping the IMUL (timing experiment) changed nothing,
// dropping the final subtraction saved 6 ticks.
//
// Rows run over the limbs of a (rdx = a[i]) and MULX reads b and p from memory, and a[0]
// is handed over in rdx: in a chain x = x * y (exponentiations, the benchmark) the previous
// product's low limb then goes from register to register, and only the later rows load
// x's limbs, off the critical path, instead of every row-0 MULX waiting for a store to
// be forwarded. Dependent chain on the dev machine: Fp 36.4 -> 34.6 ns, Fr 19.5 -> 17.9 ns.
// (Tried and dropped: a zero register for the carry fix-ups instead of MOV $0, 36.3 vs
// 36.2 ns, no change.)
//
// The asm text is regular (rows differ only in which register is the top word): this file
// is generated by scripts/gen_mont_x86_adx.py (edit the script, then run it with the
// header's path), and the test FfGenerator.MontX86AdxHeader checks that the two agree.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(__x86_64__) && defined(__BMI2__) && defined(__ADX__) && !defined(__CUDA_ARCH__) && \
    !defined(CUZK_FF_FORCE_PORTABLE)
#define CUZK_FF_HAVE_ADX 1
#else
#define CUZK_FF_HAVE_ADX 0
#endif

namespace cuzk::ff_detail {

template <size_t N>
inline constexpr bool kHaveAdxMul = false;

#if CUZK_FF_HAVE_ADX

template <>
inline constexpr bool kHaveAdxMul<4> = true;
template <>
inline constexpr bool kHaveAdxMul<6> = true;

// r = a*b*R^-1 mod p for a, b < p; r in [0, p). p[N-1] < 2^63 - 1, inv = -p^-1 mod 2^64.
template <size_t N>
void mont_mul_adx(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p, uint64_t inv);

template <>
__attribute__((always_inline)) inline void mont_mul_adx<4>(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                                           const uint64_t* p, uint64_t inv) {
    uint64_t x0, x1, x2, x3, x4, lo, hi, dx = a[0];
    const uint64_t* pa = a;
    const uint64_t* pb = b;
''',
    r'''        : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [x4] "=&r"(x4), [lo] "=&r"(lo),
          [hi] "=&r"(hi), "+d"(dx), [a] "+r"(pa), [b] "+r"(pb)
        : [p] "r"(p), [inv] "rm"(inv), [z] "r"(uint64_t(0))
        : "cc", "memory");
    r[0] = x3;
    r[1] = lo;
    r[2] = hi;
    r[3] = dx;
}

template <>
__attribute__((always_inline)) inline void mont_mul_adx<6>(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                                           const uint64_t* p, uint64_t inv) {
    uint64_t x0, x1, x2, x3, x4, x5, x6, lo, hi, dx = a[0];
    const uint64_t* pa = a;
    const uint64_t* pb = b;
''',
    r'''        : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [x4] "=&r"(x4), [x5] "=&r"(x5),
          [x6] "=&r"(x6), [lo] "=&r"(lo), [hi] "=&r"(hi), "+d"(dx), [a] "+r"(pa), [b] "+r"(pb)
        : [p] "r"(p), [inv] "rm"(inv)
        : "cc", "memory");
    r[0] = x5;
    r[1] = lo;
    r[2] = hi;
    r[3] = dx;
    r[4] = uint64_t(pa);
    r[5] = uint64_t(pb);
}

// r = a^2 * R^-1 mod p, r in [0, p): separated operand scanning (SOS). The 2N-limb
// square takes N(N-1)/2 MULX for the cross products (kept in a stack buffer as the
// rows finish), doubled on the CF chain while the N squares a_i^2 go in on the OF
// chain; then the low half is Montgomery-reduced like the multiplication rows
// (u = (w_low + M*p) / 2^64N <= p), the high half is added (u + w_high < 2p since
// w < p^2), and one conditional subtraction finishes. N(N+1)/2 + N^2 MULX in all
// against 2N^2 for mont_mul_adx (57 against 72 for N = 6).
// Measured as above (dependent chain a = a^2): Fp 81.5 TSC ticks against 91.3 for
// mont_mul_adx(a, a), Fr 45.0 against 49.9.
template <size_t N>
inline constexpr bool kHaveAdxSqr = false;
template <>
inline constexpr bool kHaveAdxSqr<4> = true;
template <>
inline constexpr bool kHaveAdxSqr<6> = true;

template <size_t N>
void mont_sqr_adx(uint64_t* r, const uint64_t* a, const uint64_t* p, uint64_t inv);

template <>
__attribute__((always_inline)) inline void mont_sqr_adx<4>(uint64_t* r, const uint64_t* a, const uint64_t* p,
                                                           uint64_t inv) {
    uint64_t x0, x1, x2, x3, x4, lo, hi, dx;
    uint64_t w[8];  // cross products, then the high half of a^2
    const uint64_t* pa = a;
    uint64_t* pw = w;
''',
    r'''        : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [x4] "=&r"(x4), [lo] "=&r"(lo),
          [hi] "=&r"(hi), "=&d"(dx), [a] "+r"(pa), [w] "+r"(pw)
        : [p] "r"(p), [inv] "rm"(inv)
        : "cc", "memory");
    r[0] = x0;
    r[1] = lo;
    r[2] = hi;
    r[3] = dx;
}

template <>
__attribute__((always_inline)) inline void mont_sqr_adx<6>(uint64_t* r, const uint64_t* a, const uint64_t* p,
                                                           uint64_t inv) {
    uint64_t x0, x1, x2, x3, x4, x5, x6, lo, hi, dx;
    uint64_t w[12];  // cross products, then the high half of a^2
    const uint64_t* pa = a;
    uint64_t* pw = w;
''',
    r'''        : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [x4] "=&r"(x4), [x5] "=&r"(x5),
          [x6] "=&r"(x6), [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(dx), [a] "+r"(pa), [w] "+r"(pw)
        : [p] "r"(p), [inv] "rm"(inv)
        : "cc", "memory");
    r[0] = x2;
    r[1] = lo;
    r[2] = hi;
    r[3] = dx;
    r[4] = uint64_t(pa);
    r[5] = uint64_t(pw);
}

// --- Lazy reduction: the wide product and the Montgomery reduction as separate steps ------
// The towers (fp2.hpp) sum several 2N-limb products before reducing (Karatsuba with lazy
// reduction: Aranha, Karabina, Longa, Gebotys, Lopez, EUROCRYPT 2011, ePrint 2010/526,
// section 3), and square/multiply unreduced sums below 2p. Rows as in mont_mul_adx: two
// carry chains, the register freed at the bottom of the window becomes the new top word.
// The asm text is generated by scripts/gen_mont_x86_adx.py, as above.

template <size_t N>
inline constexpr bool kHaveAdxWide = false;
template <>
inline constexpr bool kHaveAdxWide<4> = true;
template <>
inline constexpr bool kHaveAdxWide<6> = true;

// w[0..2N) = a * b for any N-limb a, b (schoolbook, N^2 MULX).
template <size_t N>
void mul_wide_adx(uint64_t* w, const uint64_t* a, const uint64_t* b);
// r = w * R^-1 mod p in [0, p) for w < p * R (R = 2^(64N)): N reduction rows on the low
// half (u <= p), then u + w_high < 2p, then one conditional subtraction.
template <size_t N>
void redc_adx(uint64_t* r, const uint64_t* w, const uint64_t* p, uint64_t inv);
// r = a + b mod p and r = a - b mod p for a, b < p. Register-only carry chains and CMOV:
// GCC compiles the portable _addcarry_u64 version's select into SSE masks that reload
// the limbs just stored (store-forwarding stalls). Dev machine, dependent chain a = a + b:
// Fp add 10.8 -> 2.6 ns; separate mul_wide + redc 38.7 ns against 36.4 for the fused CIOS.
// The subtraction adds back p or a row of zeros, picked by CMOV on the borrow.
template <size_t N>
void mod_add_adx(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p);
template <size_t N>
void mod_sub_adx(uint64_t* r, const uint64_t* a, const uint64_t* b, const uint64_t* p);
inline constexpr uint64_t kZeroLimbs[8] = {};

template <>
__attribute__((always_inline)) inline void mul_wide_adx<4>(uint64_t* w, const uint64_t* a, const uint64_t* b) {
    uint64_t x0, x1, x2, x3, x4, lo, hi, dx;
    const uint64_t* pa = a;
    const uint64_t* pb = b;
    uint64_t* pw = w;
''',
    r'''        : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [x4] "=&r"(x4), [lo] "=&r"(lo),
          [hi] "=&r"(hi), "=&d"(dx), [a] "+r"(pa), [b] "+r"(pb), [w] "+r"(pw)
        :
        : "cc", "memory");
}

template <>
__attribute__((always_inline)) inline void redc_adx<4>(uint64_t* r, const uint64_t* w, const uint64_t* p,
                                                       uint64_t inv) {
    uint64_t x0, x1, x2, x3, lo, hi, dx;
    const uint64_t* pw = w;
''',
    r'''        : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [lo] "=&r"(lo), [hi] "=&r"(hi),
          "=&d"(dx), [w] "+r"(pw)
        : [p] "r"(p), [inv] "rm"(inv)
        : "cc", "memory");
    r[0] = lo;
    r[1] = hi;
    r[2] = dx;
    r[3] = uint64_t(pw);
}

template <>
__attribute__((always_inline)) inline void mod_add_adx<4>(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                                          const uint64_t* p) {
    uint64_t t0, t1, t2, t3, s0, s1;
    const uint64_t* pa = a;
    const uint64_t* pb = b;
''',
    r'''        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [s0] "=&r"(s0), [s1] "=&r"(s1), [a] "+r"(pa),
          [b] "+r"(pb)
        : [p] "r"(p)
        : "cc", "memory");
    r[0] = s0;
    r[1] = s1;
    r[2] = uint64_t(pa);
    r[3] = uint64_t(pb);
}

template <>
__attribute__((always_inline)) inline void mod_sub_adx<4>(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                                          const uint64_t* p) {
    uint64_t t0, t1, t2, t3;
    const uint64_t* z = kZeroLimbs;
''',
    r'''        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [z] "+r"(z)
        : [a] "r"(a), [b] "r"(b), [p] "r"(p)
        : "cc", "memory");
    r[0] = t0;
    r[1] = t1;
    r[2] = t2;
    r[3] = t3;
}

template <>
__attribute__((always_inline)) inline void mul_wide_adx<6>(uint64_t* w, const uint64_t* a, const uint64_t* b) {
    uint64_t x0, x1, x2, x3, x4, x5, x6, lo, hi, dx;
    const uint64_t* pa = a;
    const uint64_t* pb = b;
    uint64_t* pw = w;
''',
    r'''        : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [x4] "=&r"(x4), [x5] "=&r"(x5),
          [x6] "=&r"(x6), [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(dx), [a] "+r"(pa), [b] "+r"(pb), [w] "+r"(pw)
        :
        : "cc", "memory");
}

template <>
__attribute__((always_inline)) inline void redc_adx<6>(uint64_t* r, const uint64_t* w, const uint64_t* p,
                                                       uint64_t inv) {
    uint64_t x0, x1, x2, x3, x4, x5, lo, hi, dx, s4, s5;
    const uint64_t* pw = w;
''',
    r'''        : [x0] "=&r"(x0), [x1] "=&r"(x1), [x2] "=&r"(x2), [x3] "=&r"(x3), [x4] "=&r"(x4), [x5] "=&r"(x5),
          [lo] "=&r"(lo), [hi] "=&r"(hi), "=&d"(dx), [s4] "=&r"(s4), [s5] "=&r"(s5), [w] "+r"(pw)
        : [p] "r"(p), [inv] "rm"(inv)
        : "cc", "memory");
    r[0] = lo;
    r[1] = hi;
    r[2] = dx;
    r[3] = uint64_t(pw);
    r[4] = s4;
    r[5] = s5;
}

template <>
__attribute__((always_inline)) inline void mod_add_adx<6>(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                                          const uint64_t* p) {
    uint64_t t0, t1, t2, t3, t4, t5, s0, s1, s2, s3;
    const uint64_t* pa = a;
    const uint64_t* pb = b;
''',
    r'''        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
          [s0] "=&r"(s0), [s1] "=&r"(s1), [s2] "=&r"(s2), [s3] "=&r"(s3), [a] "+r"(pa), [b] "+r"(pb)
        : [p] "r"(p)
        : "cc", "memory");
    r[0] = s0;
    r[1] = s1;
    r[2] = s2;
    r[3] = s3;
    r[4] = uint64_t(pa);
    r[5] = uint64_t(pb);
}

template <>
__attribute__((always_inline)) inline void mod_sub_adx<6>(uint64_t* r, const uint64_t* a, const uint64_t* b,
                                                          const uint64_t* p) {
    uint64_t t0, t1, t2, t3, t4, t5;
    const uint64_t* z = kZeroLimbs;
''',
    r'''        : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5), [z] "+r"(z)
        : [a] "r"(a), [b] "r"(b), [p] "r"(p)
        : "cc", "memory");
    r[0] = t0;
    r[1] = t1;
    r[2] = t2;
    r[3] = t3;
    r[4] = t4;
    r[5] = t5;
}

#endif  // CUZK_FF_HAVE_ADX

}  // namespace cuzk::ff_detail
''',
]


def generate():
    parts = []
    for k, (fn, n) in enumerate(ROUTINES):
        parts += [TEXT[k], fn(n)]
    parts.append(TEXT[-1])
    return "".join(parts)


def main(argv):
    text = generate()
    if len(argv) == 3 and argv[1] == "--check":
        with open(argv[2]) as f:
            have = f.read()
        if have == text:
            return 0
        sys.stderr.write("%s differs from the output of %s; regenerate it with:\n  %s %s\n" % (argv[2], argv[0], argv[0], argv[2]))
        sys.stderr.writelines(difflib.unified_diff(have.splitlines(True), text.splitlines(True), argv[2], "generated", n=2))
        return 1
    if len(argv) == 2 and not argv[1].startswith("-"):
        with open(argv[1], "w") as f:
            f.write(text)
        return 0
    if len(argv) == 1:
        sys.stdout.write(text)
        return 0
    sys.stderr.write(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
