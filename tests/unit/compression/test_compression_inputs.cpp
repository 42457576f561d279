// SPDX-License-Identifier: BSD-3-Clause
// Synthetic inputs of the compressed allreduce (compression/kernels/kernels.hpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <vector>

#include "compression/kernels/kernels.hpp"

namespace pc = pico::compressed;

namespace {

struct Moments {
  double mean = 0, variance = 0, mean_abs = 0;
};

Moments moments(const std::vector<float>& x) {
  Moments m;
  for (const float v : x) {
    m.mean += v;
    m.mean_abs += std::fabs(v);
  }
  m.mean /= static_cast<double>(x.size());
  m.mean_abs /= static_cast<double>(x.size());
  for (const float v : x) {
    m.variance += (v - m.mean) * (v - m.mean);
  }
  m.variance /= static_cast<double>(x.size());
  return m;
}

double correlation(const std::vector<float>& a, const std::vector<float>& b) {
  const Moments ma = moments(a), mb = moments(b);
  double c = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    c += (a[i] - ma.mean) * (b[i] - mb.mean);
  }
  return c / static_cast<double>(a.size()) / std::sqrt(ma.variance * mb.variance);
}

std::vector<float> draw(const pc::InputSpec& spec, int rank, std::size_t n) {
  std::vector<float> x(n);
  pc::generate_input(spec, rank, x);
  return x;
}

// E|T| of Student-t with dof v, times the unit-variance scale sqrt((v - 2) / v).
double student_t_mean_abs(double v) {
  const double e = 2.0 * std::sqrt(v) * std::tgamma((v + 1) / 2) / (std::sqrt(std::numbers::pi) * (v - 1) * std::tgamma(v / 2));
  return e * std::sqrt((v - 2) / v);
}

}  // namespace

TEST_CASE("generate_input is independent of the length (chunking)", "[compressed]") {
  for (const auto distribution : {pc::Distribution::normal, pc::Distribution::laplace, pc::Distribution::student_t}) {
    for (const auto correlation :
         {pc::Correlation::identical, pc::Correlation::correlated, pc::Correlation::independent}) {
      pc::InputSpec spec;
      spec.distribution = distribution;
      spec.correlation = correlation;
      const auto longer = draw(spec, 2, 5003);
      const auto shorter = draw(spec, 2, 1501);
      CHECK(std::equal(shorter.begin(), shorter.end(), longer.begin()));
    }
  }
}

TEST_CASE("generate_input has unit variance and the distribution's shape", "[compressed]") {
  const std::size_t n = 400000;
  pc::InputSpec spec;
  SECTION("normal: E|x| = sqrt(2/pi)") {
    const Moments m = moments(draw(spec, 0, n));
    CHECK(std::fabs(m.mean) < 0.01);
    CHECK(m.variance == Approx(1.0).margin(0.015));
    CHECK(m.mean_abs == Approx(std::sqrt(2.0 / std::numbers::pi)).margin(0.005));
  }
  SECTION("Laplace: E|x| = b = 1/sqrt(2)") {
    spec.distribution = pc::Distribution::laplace;
    const Moments m = moments(draw(spec, 0, n));
    CHECK(std::fabs(m.mean) < 0.01);
    CHECK(m.variance == Approx(1.0).margin(0.025));
    CHECK(m.mean_abs == Approx(1.0 / std::numbers::sqrt2).margin(0.005));
  }
  SECTION("Student-t, dof 8") {
    spec.distribution = pc::Distribution::student_t;
    spec.dof = 8.0;
    const Moments m = moments(draw(spec, 0, n));
    CHECK(std::fabs(m.mean) < 0.01);
    CHECK(m.variance == Approx(1.0).margin(0.03));
    CHECK(m.mean_abs == Approx(student_t_mean_abs(8.0)).margin(0.005));
  }
}

TEST_CASE("generate_input's correlation across ranks", "[compressed]") {
  const std::size_t n = 200000;
  pc::InputSpec spec;
  SECTION("identical") {
    spec.correlation = pc::Correlation::identical;
    CHECK(draw(spec, 0, n) == draw(spec, 5, n));
  }
  SECTION("independent") {
    spec.correlation = pc::Correlation::independent;
    CHECK(std::fabs(correlation(draw(spec, 0, n), draw(spec, 1, n))) < 0.015);
  }
  SECTION("correlated with rho") {
    spec.correlation = pc::Correlation::correlated;
    for (const double rho : {0.25, 0.5, 0.9}) {
      spec.rho = rho;
      const auto a = draw(spec, 1, n);
      CHECK(correlation(a, draw(spec, 3, n)) == Approx(rho).margin(0.015));
      CHECK(moments(a).variance == Approx(1.0).margin(0.015));
    }
  }
}

TEST_CASE("generate_input rejects bad parameters", "[compressed]") {
  std::vector<float> x(8);
  pc::InputSpec spec;
  CHECK_THROWS_AS(pc::generate_input(spec, -1, x), std::invalid_argument);
  spec.correlation = pc::Correlation::correlated;
  spec.rho = 1.5;
  CHECK_THROWS_AS(pc::generate_input(spec, 0, x), std::invalid_argument);
  spec.rho = 0.5;
  spec.distribution = pc::Distribution::student_t;
  spec.dof = 0.0;
  CHECK_THROWS_AS(pc::generate_input(spec, 0, x), std::invalid_argument);
}
