// GMP as the big-integer reference for field tests (tests only).
#pragma once

#include <gmp.h>

#include <string>

#include "cuzk/ff/bigint.hpp"

namespace cuzk::test {

// RAII mpz_t.
struct Mpz {
    mpz_t v;
    Mpz() { mpz_init(v); }
    explicit Mpz(const char* s, int base = 0) { mpz_init_set_str(v, s, base); }
    Mpz(const Mpz& o) { mpz_init_set(v, o.v); }
    Mpz& operator=(const Mpz& o) {
        mpz_set(v, o.v);
        return *this;
    }
    ~Mpz() { mpz_clear(v); }
    std::string hex() const {
        char* s = mpz_get_str(nullptr, 16, v);
        std::string r = std::string("0x") + s;
        void (*freefunc)(void*, size_t);
        mp_get_memory_functions(nullptr, nullptr, &freefunc);
        freefunc(s, std::char_traits<char>::length(s) + 1);
        return r;
    }
};

template <size_t N>
Mpz to_mpz(const BigInt<N>& b) {
    Mpz m;
    mpz_import(m.v, N, -1, sizeof(uint64_t), 0, 0, b.l);
    return m;
}

template <size_t N>
BigInt<N> from_mpz(const Mpz& m) {
    BigInt<N> b = BigInt<N>::zero();
    size_t count = 0;
    mpz_export(b.l, &count, -1, sizeof(uint64_t), 0, 0, m.v);
    return b;
}

}  // namespace cuzk::test
