#include "cuzk/r1cs/shape_cs.hpp"

#include <string>

namespace cuzk::r1cs {

namespace {
void set_bit(std::vector<uint64_t>& bits, uint32_t i) {
    if (i / 64 >= bits.size()) bits.resize(std::max<size_t>(i / 64 + 1, 2 * bits.size()), 0);
    bits[i / 64] |= uint64_t(1) << (i % 64);
}
BitVec to_bitvec(const std::vector<uint64_t>& bits, size_t n) {
    BitVec v(n);
    for (size_t i = 0; i < n; ++i)
        if (i / 64 < bits.size() && ((bits[i / 64] >> (i % 64)) & 1)) v.set(i);
    return v;
}
}  // namespace

ShapeCS::ShapeCS() {
    coeff_index(Fr::one());
    coeff_index(-Fr::one());
}

void ShapeCS::check_room(uint64_t n, const char* what) {
    if (n >= Variable::kMaxIndex)
        throw SynthesisError(std::string("ShapeCS: too many ") + what + " variables (limit 2^31 - 1)");
}

uint32_t ShapeCS::coeff_index(const Fr& c) {
    auto [it, inserted] = dict_.try_emplace(c, uint32_t(shape_.coeffs.size()));
    if (inserted) shape_.coeffs.push_back(c);
    return it->second;
}

void ShapeCS::append(SparseMatrix& m, const LC& l) {
    for (const Term& t : l.terms()) {
        m.col.push_back(t.var.raw());
        m.coeff.push_back(t.coeff.is_one() ? 0 : coeff_index(t.coeff));
    }
    m.row_ptr.push_back(m.col.size());
}

void ShapeCS::reserve(const ShapeCounts& counts) {
    if (!matrices_) return;
    shape_.coeffs.reserve(counts.coeffs);
    dict_.reserve(counts.coeffs);
    const uint64_t nnz[3] = {counts.nnz_a, counts.nnz_b, counts.nnz_c};
    SparseMatrix* ms[3] = {&shape_.a, &shape_.b, &shape_.c};
    for (size_t i = 0; i < 3; ++i) {
        ms[i]->row_ptr.reserve(counts.num_constraints + 1);
        ms[i]->col.reserve(nnz[i]);
        ms[i]->coeff.reserve(nnz[i]);
    }
}

void ShapeCS::record(LC& a, LC& b, LC& c) {
    if (shape_.num_constraints >= UINT32_MAX) throw SynthesisError("ShapeCS: too many constraints (limit 2^32 - 1)");
    if (cancel_ && shape_.num_constraints % kCancelEvery == 0) throw_if_cancelled(cancel_, "shape recording");
    a.normalize();
    b.normalize();
    for (const Term& t : a.terms())
        if (t.var.is_aux()) set_bit(a_aux_, t.var.index());
    for (const Term& t : b.terms()) set_bit(t.var.is_aux() ? b_aux_ : b_input_, t.var.index());
    if (!matrices_) {
        ++shape_.num_constraints;
        return;
    }
    c.normalize();
    append(shape_.a, a);
    append(shape_.b, b);
    append(shape_.c, c);
    ++shape_.num_constraints;
}

Density ShapeCS::density() const {
    return Density{to_bitvec(a_aux_, shape_.num_aux), to_bitvec(b_input_, shape_.num_inputs),
                   to_bitvec(b_aux_, shape_.num_aux)};
}

Shape ShapeCS::finish() {
    Shape s = std::move(shape_);
    shape_ = Shape{};
    dict_.clear();
    a_aux_.clear();
    b_input_.clear();
    b_aux_.clear();
    coeff_index(Fr::one());
    coeff_index(-Fr::one());
    return s;
}

}  // namespace cuzk::r1cs
