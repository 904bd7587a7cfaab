pragma circom 2.0.0;

// N_CONSTRAINTS multiplications in a chain (scripts/circom replaces the placeholder):
// t[0] = a * b, t[i] = t[i - 1] * a + 3 b + i, c = t[N - 1]; public: the output c and
// the input a. The constants give the coefficient section values other than 1.
template Chain(N) {
    signal input a;
    signal input b;
    signal output c;
    signal t[N];
    t[0] <== a * b;
    for (var i = 1; i < N; i++) {
        t[i] <== t[i - 1] * a + 3 * b + i;
    }
    c <== t[N - 1];
}

component main {public [a]} = Chain(N_CONSTRAINTS);
