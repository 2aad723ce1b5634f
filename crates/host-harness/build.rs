//! Links the harness binaries with packed relative relocations (`DT_RELR`): the position-
//! independent binary has about 42,000 of them, which as `RELA` entries fill a 1 MB table the
//! loader reads at every start; packed they take about 10 KB. The addresses stay randomized.
fn main() {
    println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
}
