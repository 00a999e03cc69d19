//! A seeded multiply-mix hasher for the scorers' in-memory maps.
//!
//! The keys are answer text (list pieces, caption words) and numbers read from it, so an
//! archive's author chooses them. An unkeyed hash lets such keys be chosen to collide,
//! turning each map operation into a scan of every earlier key. The hasher is therefore
//! keyed by a secret drawn once per process. No result depends on it: every map here is
//! only looked up (or iterated where the order cannot matter: counts summed into another
//! map), never iterated into an output.

use std::hash::{BuildHasher, Hasher};
use std::sync::OnceLock;

/// For maps whose keys are numbers, ids and short texts, hashed once each, where SipHash's
/// cost would dominate (the GAIA list index, caption n-grams). `Default` gives the process's
/// keys; [`FastHash::with_seed`] fixed ones (tests).
#[derive(Clone, Copy, Debug)]
pub struct FastHash {
    start: u64,
    mul: u64,
}

impl FastHash {
    /// The hasher keyed by `seed` (the same seed gives the same hashes).
    pub fn with_seed(seed: u64) -> Self {
        // Two words from one seed by splitmix64 steps; the multiplier is odd so that no
        // key bit is lost from the product's low half.
        let a = splitmix(seed);
        let b = splitmix(a);
        FastHash { start: a, mul: b | 1 }
    }
}

impl Default for FastHash {
    #[inline]
    fn default() -> Self {
        static KEYS: OnceLock<FastHash> = OnceLock::new();
        *KEYS.get_or_init(|| {
            // std's RandomState is keyed from the OS's randomness (once per thread, then
            // stepped); hashing a constant with it gives a random word, with no new crate.
            let seed = std::collections::hash_map::RandomState::new().hash_one(0x6761_6961_2d66_6173u64);
            FastHash::with_seed(seed)
        })
    }
}

impl BuildHasher for FastHash {
    type Hasher = MulHasher;
    #[inline]
    fn build_hasher(&self) -> MulHasher {
        MulHasher { h: self.start, mul: self.mul }
    }
}

fn splitmix(x: u64) -> u64 {
    let mut h = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^ (h >> 31)
}

/// Both halves of the 128-bit product, folded: each output bit depends on every bit of
/// both factors (one `mul` instruction on x86-64 and AArch64).
#[inline(always)]
fn folded_mul(a: u64, b: u64) -> u64 {
    let p = u128::from(a) * u128::from(b);
    (p as u64) ^ ((p >> 64) as u64)
}

pub struct MulHasher {
    h: u64,
    mul: u64,
}

impl Hasher for MulHasher {
    #[inline]
    fn finish(&self) -> u64 {
        // The last folded multiply has mixed already: its high half, folded onto the low
        // bits the table indexes with, depends on every bit of the last word and state.
        // (A plain multiply kept trailing zeros: the bits of a double holding a small
        // integer are zero at the bottom, which put every such key in one probe sequence.)
        self.h
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            self.write_u64(u64::from_le_bytes(c.try_into().unwrap_or_default()));
        }
        let mut last = [0u8; 8];
        last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        self.write_u64(u64::from_le_bytes(last) ^ ((bytes.len() as u64) << 56));
    }
    #[inline]
    fn write_u64(&mut self, v: u64) {
        // A folded multiply by the secret odd word, not multiply-rotate by a constant: with
        // a constant multiplier, flipping a word's top bit flips only the state's top bit
        // (2^63 * odd = 2^63 mod 2^64), which the next word's bit 4 cancels after the
        // rotate, so keys collided whatever the starting state (see the tests).
        self.h = folded_mul(self.h ^ v, self.mul);
    }
    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }
    fn write_u8(&mut self, v: u8) {
        self.write_u64(u64::from(v));
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
}

/// The unkeyed hasher this module had before it was seeded, and keys built to collide
/// under it, for the tests here and in the modules that use [`FastHash`].
#[cfg(test)]
pub(crate) mod old {
    use std::hash::{BuildHasher, Hasher};

    const K: u64 = 0x517C_C1B7_2722_0A95;

    /// The old hasher, from state `start` (0 as it was; any other value shows that seeding
    /// its start alone would not have separated the text keys below).
    #[derive(Clone, Copy, Default)]
    pub struct OldBuild(pub u64);

    pub struct Old(u64);

    impl BuildHasher for OldBuild {
        type Hasher = Old;
        fn build_hasher(&self) -> Old {
            Old(self.0)
        }
    }

    fn fin(mut h: u64) -> u64 {
        h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^ (h >> 31)
    }

    /// The inverse of `fin` (each step is invertible: an odd multiplier, a right shift
    /// of at least half the word).
    fn unfin(mut h: u64) -> u64 {
        h ^= h >> 31 ^ h >> 62;
        h = h.wrapping_mul(inverse(0x94D0_49BB_1331_11EB));
        h ^= h >> 27 ^ h >> 54;
        h = h.wrapping_mul(inverse(0xBF58_476D_1CE4_E5B9));
        h ^= h >> 30 ^ h >> 60;
        h
    }

    /// The inverse of an odd word modulo 2^64 (Newton's iteration).
    fn inverse(a: u64) -> u64 {
        let mut x = a;
        for _ in 0..6 {
            x = x.wrapping_mul(2u64.wrapping_sub(a.wrapping_mul(x)));
        }
        x
    }

    impl Hasher for Old {
        fn finish(&self) -> u64 {
            fin(self.0)
        }
        fn write(&mut self, bytes: &[u8]) {
            let mut chunks = bytes.chunks_exact(8);
            for c in &mut chunks {
                self.write_u64(u64::from_le_bytes(c.try_into().unwrap_or_default()));
            }
            let mut last = [0u8; 8];
            last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
            self.write_u64(u64::from_le_bytes(last) ^ ((bytes.len() as u64) << 56));
        }
        fn write_u64(&mut self, v: u64) {
            self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(K);
        }
        fn write_usize(&mut self, v: usize) {
            self.write_u64(v as u64);
        }
    }

    /// `n` doubles (not NaN) whose number keys (their bits) hash, under the old hasher, to
    /// the same low 32 bits and the same top 7 bits: the same first bucket and the same
    /// control byte in every table up to 2^32 buckets, so each insert or lookup compares
    /// against every earlier key. Built by inverting the hash (a u64 is one `write_u64`
    /// from state 0: `fin(v * K)`).
    pub fn colliding_numbers(n: usize) -> Vec<f64> {
        let kinv = inverse(K);
        let top = 0x55u64 << 57;
        let low = 0x1234_5678u64;
        (1u64..)
            .map(|i| fin_target(top | (i << 32) | low, kinv))
            .map(f64::from_bits)
            .filter(|v| !v.is_nan() && *v != 0.0)
            .take(n)
            .collect()
    }

    fn fin_target(h: u64, kinv: u64) -> u64 {
        unfin(h).wrapping_mul(kinv)
    }

    /// 2^`bits` distinct byte strings of 16 * `bits` bytes with one and the same old hash
    /// from ANY starting state: in each 16-byte block, flipping bit 63 of the first word
    /// flips only the state's top bit (2^63 * K = 2^63 mod 2^64), and flipping bit 4 of the
    /// second word (bit 63 rotated left by 5) cancels it.
    pub fn colliding_texts(bits: u32) -> Vec<Vec<u8>> {
        let base: Vec<u8> = (0..16 * bits as usize).map(|i| b'a' + (i % 26) as u8).collect();
        (0..1u64 << bits)
            .map(|mask| {
                let mut k = base.clone();
                for b in 0..bits as usize {
                    if mask >> b & 1 == 1 {
                        k[16 * b + 7] ^= 0x80;
                        k[16 * b + 8] ^= 0x10;
                    }
                }
                k
            })
            .collect()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::old::{colliding_numbers, colliding_texts, OldBuild};
    use super::FastHash;
    use std::cell::Cell;
    use std::collections::HashMap;
    use std::hash::{BuildHasher, Hash, Hasher};

    thread_local! {
        static EQS: Cell<u64> = const { Cell::new(0) };
    }

    /// A key that counts its equality tests: the table compares a probe with each stored
    /// key whose control byte matches on its probe sequence, so the count is the work.
    #[derive(Clone, Debug)]
    pub struct Counted<K>(pub K);

    impl<K: Hash> Hash for Counted<K> {
        fn hash<H: Hasher>(&self, h: &mut H) {
            self.0.hash(h);
        }
    }
    impl<K: PartialEq> PartialEq for Counted<K> {
        fn eq(&self, other: &Self) -> bool {
            EQS.with(|c| c.set(c.get() + 1));
            self.0 == other.0
        }
    }
    impl<K: Eq> Eq for Counted<K> {}

    /// Equality tests made by `f`.
    pub fn count_eqs(f: impl FnOnce()) -> u64 {
        let before = EQS.with(Cell::get);
        f();
        EQS.with(Cell::get) - before
    }

    /// Equality tests to insert every key then look every one up, with hasher `s`.
    fn map_work<K: Hash + Eq + Clone, S: BuildHasher>(keys: &[K], s: S) -> u64 {
        count_eqs(|| {
            let mut m: HashMap<Counted<K>, usize, S> = HashMap::with_hasher(s);
            for (i, k) in keys.iter().enumerate() {
                m.insert(Counted(k.clone()), i);
            }
            for (i, k) in keys.iter().enumerate() {
                assert_eq!(m.get(&Counted(k.clone())), Some(&i));
            }
        })
    }

    fn hashes<K: Hash, S: BuildHasher>(keys: &[K], s: &S) -> std::collections::HashSet<u64> {
        keys.iter().map(|k| s.hash_one(k)).collect()
    }

    const SEEDS: [u64; 4] = [0, 1, 0xDEAD_BEEF, u64::MAX];

    #[test]
    fn crafted_numbers_collide_unseeded_and_spread_seeded() {
        let n = 2000;
        let keys: Vec<u64> = colliding_numbers(n).iter().map(|v| v.to_bits()).collect();
        assert_eq!(keys.len(), n);
        let old = OldBuild(0);
        assert!(keys.iter().all(|k| old.hash_one(k) & 0xFFFF_FFFF == 0x1234_5678 && old.hash_one(k) >> 57 == 0x55));
        // Unseeded: every insert and lookup compares with the earlier keys (~n^2).
        let quadratic = map_work(&keys, old);
        assert!(quadratic > (n * n / 2) as u64, "{quadratic}");
        // Seeded (fixed seeds, then the process's): about one compare per operation.
        for s in SEEDS.map(FastHash::with_seed).into_iter().chain([FastHash::default()]) {
            assert_eq!(hashes(&keys, &s).len(), n);
            let work = map_work(&keys, s);
            assert!(work <= 3 * n as u64, "{work} compares for {n} keys with {s:?}");
        }
    }

    #[test]
    fn crafted_texts_collide_from_any_start_and_spread_seeded() {
        let keys = colliding_texts(11); // 2048 keys of 176 bytes
        let n = keys.len();
        let slices: Vec<&[u8]> = keys.iter().map(Vec::as_slice).collect();
        // The same full hash from several starting states: seeding the old hasher's start
        // alone would not have helped.
        for start in SEEDS {
            assert_eq!(hashes(&slices, &OldBuild(start)).len(), 1, "start {start:#x}");
        }
        let quadratic = map_work(&slices, OldBuild(0));
        assert!(quadratic > (n * n / 2) as u64, "{quadratic}");
        for s in SEEDS.map(FastHash::with_seed).into_iter().chain([FastHash::default()]) {
            assert_eq!(hashes(&slices, &s).len(), n, "{s:?}");
            let work = map_work(&slices, s);
            assert!(work <= 3 * n as u64, "{work} compares for {n} keys with {s:?}");
        }
    }

    #[test]
    fn one_process_one_key() {
        // Every map in the process hashes alike (the seed is drawn once), and a fixed seed
        // gives fixed hashes.
        let (a, b) = (FastHash::default(), FastHash::default());
        for k in [&b"x"[..], b"", b"twelve bytes", &[0xff; 40]] {
            assert_eq!(a.hash_one(k), b.hash_one(k));
        }
        assert_eq!(FastHash::with_seed(7).hash_one(42u64), FastHash::with_seed(7).hash_one(42u64));
        assert_ne!(FastHash::with_seed(7).hash_one(42u64), FastHash::with_seed(8).hash_one(42u64));
    }

    #[test]
    fn small_integer_doubles_spread_over_low_bits() {
        // The case the finaliser is there for: doubles of small integers have zero low bits.
        for s in SEEDS.map(FastHash::with_seed) {
            let low: std::collections::HashSet<u64> = (1..=4096u32).map(|i| s.hash_one(f64::from(i).to_bits()) & 0xFFF).collect();
            assert!(low.len() > 2000, "{} distinct low 12 bits of 4096", low.len());
        }
    }
}
