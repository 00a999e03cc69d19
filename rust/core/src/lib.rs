//! gaia-fast core: exact, fast answer scoring for AI benchmarks, free of any Python
//! binding. Every function reproduces a named reference scorer; see the project README.

pub mod batch;
pub mod caption;
pub mod choice;
pub mod extract;
pub mod fasthash;
pub mod gaia;
pub mod numpy;
pub mod olympiad;
pub mod ocrbench;
pub mod omni3d;
pub mod order;
pub mod surrogate;
#[cfg(test)]
mod test_rng;
pub mod text;
mod unicode_tables;
pub mod vqa;
pub mod yorn;
mod work;
