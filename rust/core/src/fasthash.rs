//! A multiply-rotate hasher for the scorers' in-memory maps.

/// For maps whose keys are numbers, ids and short texts, hashed once each, where SipHash's
/// cost would dominate (the GAIA list index, caption n-grams).
pub type FastHash = std::hash::BuildHasherDefault<MulHasher>;

#[derive(Default)]
pub struct MulHasher(u64);

impl std::hash::Hasher for MulHasher {
    fn finish(&self) -> u64 {
        // splitmix64's finaliser, so that the low bits the table indexes with depend on
        // every input bit. (A multiply keeps trailing zeros: the bits of a double holding a
        // small integer are zero at the bottom, and a lighter mix left them so, putting
        // every such key in one probe sequence.)
        let mut h = self.0;
        h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^ (h >> 31)
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
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x517C_C1B7_2722_0A95);
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
