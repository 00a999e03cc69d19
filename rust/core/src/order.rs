//! The order of rows sorted by a text key, stable, nulls last: how `answer_comparison.csv`
//! orders its rows (Python's `sorted` of `str`, i.e. by code point, which for UTF-8 is
//! byte order).
//!
//! Archives either repeat a few thousand task ids run after run or hold one row per id.
//! Repeated keys are ranked once (the distinct keys sorted) and the rows placed by a
//! counting sort, linear in the rows; mostly distinct keys are sorted on all cores, eight
//! bytes at a time as integers. The rows are then written as CSV lines in that order,
//! read from their columns where they lie (nothing is gathered first).

use std::collections::HashMap;

use rayon::prelude::*;

use crate::batch::{Cursor, StrColumn};
use crate::fasthash::FastHash;

/// Rows in key order, and where in that order each repeated key begins.
pub struct Sorted {
    /// Row indexes in ascending key order; equal keys keep their row order and `None`
    /// comes after every key.
    pub order: Vec<u32>,
    /// Positions in `order` where a run of two or more equal keys begins: each repeated
    /// key once, in key order (found by the sort itself, without reading keys again).
    pub repeats: Vec<u32>,
}

/// Sort the rows of `keys` (see [`Sorted`]).
pub fn sort_keys(keys: &[Option<&[u8]>]) -> Sorted {
    assert!(
        u32::try_from(keys.len()).is_ok(),
        "at most 2^32 - 1 rows per sort"
    );
    ranked(keys).unwrap_or_else(|| compared(keys))
}

/// Row indexes of `keys` in ascending key order (see [`Sorted::order`]).
pub fn stable_order(keys: &[Option<&[u8]>]) -> Vec<u32> {
    sort_keys(keys).order
}

/// Eight bytes of a key from `off` as a big-endian integer (zero-padded), with how many
/// bytes are left there (capped at 9: "more than this word"). Ordering (word, left)
/// orders the keys by their bytes from `off` on as far as one word can tell: a key that
/// ends inside the word sorts before a longer key with the same bytes.
#[inline]
fn word(k: &[u8], off: usize) -> (u64, u8) {
    let rest = k.get(off..).unwrap_or_default();
    let mut b = [0u8; 8];
    let n = rest.len().min(8);
    b[..n].copy_from_slice(&rest[..n]);
    (u64::from_be_bytes(b), rest.len().min(9) as u8)
}

/// The counting sort, or None when the keys are not repeated enough for it to pay (more
/// than one distinct key in four rows).
fn ranked(keys: &[Option<&[u8]>]) -> Option<Sorted> {
    let cap = keys.len() / 4;
    // An evenly spaced sample first, so distinct keys are not hashed in vain.
    let step = (keys.len() / 4096).max(1);
    let mut seen: std::collections::HashSet<&[u8], FastHash> = Default::default();
    let sampled = keys
        .iter()
        .step_by(step)
        .flatten()
        .map(|k| seen.insert(*k))
        .count();
    if seen.len() * 4 > sampled.max(1) {
        return None;
    }
    let mut index: HashMap<&[u8], u32, FastHash> = HashMap::default();
    let mut distinct: Vec<&[u8]> = Vec::new();
    // Each row's distinct-key number (u32::MAX for null).
    let mut slot = Vec::with_capacity(keys.len());
    for k in keys {
        let s = match k {
            None => u32::MAX,
            Some(k) => *index.entry(k).or_insert_with(|| {
                distinct.push(k);
                (distinct.len() - 1) as u32
            }),
        };
        if distinct.len() > cap {
            return None;
        }
        slot.push(s);
    }
    let mut by_key: Vec<u32> = (0..distinct.len() as u32).collect();
    by_key.sort_unstable_by(|&a, &b| distinct[a as usize].cmp(distinct[b as usize]));
    // rank[slot] = position of the key among the sorted distinct keys; nulls rank last.
    let mut rank = vec![0u32; distinct.len()];
    for (r, &s) in by_key.iter().enumerate() {
        rank[s as usize] = r as u32;
    }
    let nulls = distinct.len();
    let mut start = vec![0usize; distinct.len() + 2];
    for &s in &slot {
        let r = if s == u32::MAX {
            nulls
        } else {
            rank[s as usize] as usize
        };
        start[r + 1] += 1;
    }
    for r in 1..start.len() {
        start[r] += start[r - 1];
    }
    let repeats = (0..nulls)
        .filter(|&r| start[r + 1] - start[r] >= 2)
        .map(|r| start[r] as u32)
        .collect();
    let mut out = vec![0u32; keys.len()];
    for (i, &s) in slot.iter().enumerate() {
        let r = if s == u32::MAX {
            nulls
        } else {
            rank[s as usize] as usize
        };
        out[start[r]] = i as u32;
        start[r] += 1;
    }
    Some(Sorted {
        order: out,
        repeats,
    })
}

/// Rows held as CSV lines, built in row order (reading the columns front to back) and
/// written in any order: the dialect of Python's `csv.writer` with CR LF line ends
/// (fields joined by commas; a field holding a comma, a quote, CR or LF quoted with its
/// quotes doubled; null and empty written as nothing; rows have several fields, so an
/// empty row never arises). Each row's first field is kept apart as its key.
#[derive(Default)]
pub struct CsvRows {
    text: Vec<u8>,
    /// End of each row's line in `text`.
    ends: Vec<u64>,
    keys: Vec<u8>,
    /// End of each row's key in `keys`, `u64::MAX` for a null key.
    key_ends: Vec<u64>,
    /// Parts built in parallel, kept for their memory.
    scratch: Vec<CsvRows>,
}

impl CsvRows {
    /// Add a row; `check[n]` false says field `n` never needs quotes (its writer's own
    /// integers and words), so it is not searched.
    pub fn push(&mut self, fields: &[Option<&[u8]>], check: &[bool]) {
        for (n, f) in fields.iter().enumerate() {
            if n > 0 {
                self.text.push(b',');
            }
            let f = f.unwrap_or_default();
            if check.get(n).copied().unwrap_or(true) {
                csv_field(&mut self.text, f);
            } else {
                self.text.extend_from_slice(f);
            }
        }
        self.ends.push(self.text.len() as u64);
        match fields.first().copied().flatten() {
            Some(k) => {
                self.keys.extend_from_slice(k);
                self.key_ends.push(self.keys.len() as u64);
            }
            None => self.key_ends.push(u64::MAX),
        }
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Add every row of `columns` (equal lengths), their lines built on all cores in
    /// parts joined in order; `check` as for [`CsvRows::push`].
    pub fn extend_from<C: StrColumn>(&mut self, columns: &[C], check: &[bool]) {
        let n = columns.first().map_or(0, |c| c.len());
        let build = |part: &mut CsvRows, lo: usize, hi: usize| {
            let mut cursors: Vec<_> = columns.iter().map(StrColumn::cursor).collect();
            let mut fields: Vec<Option<&[u8]>> = vec![None; columns.len()];
            for i in lo..hi {
                for (f, c) in fields.iter_mut().zip(cursors.iter_mut()) {
                    *f = c.get(i).map(str::as_bytes);
                }
                part.push(&fields, check);
            }
        };
        let parts = rayon::current_num_threads().clamp(1, n.div_ceil(PART_ROWS).max(1));
        if parts == 1 {
            build(self, 0, n);
            return;
        }
        // The parts' buffers are kept from call to call: fresh memory costs a page
        // fault per 4 KiB, more than building the lines.
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.resize_with(parts, CsvRows::default);
        scratch.par_iter_mut().enumerate().for_each(|(k, part)| {
            part.clear();
            build(part, k * n / parts, (k + 1) * n / parts);
        });
        for part in &scratch {
            self.append(part);
        }
        self.scratch = scratch;
    }

    /// Forget every row, keeping the memory for the next ones.
    pub fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
        self.keys.clear();
        self.key_ends.clear();
    }

    /// Add the rows of `other` after these.
    pub fn append(&mut self, other: &CsvRows) {
        let (text, keys) = (self.text.len() as u64, self.keys.len() as u64);
        self.text.extend_from_slice(&other.text);
        self.keys.extend_from_slice(&other.keys);
        self.ends.extend(other.ends.iter().map(|e| e + text));
        self.key_ends.extend(other.key_ends.iter().map(|&e| if e == u64::MAX { e } else { e + keys }));
    }

    /// Make room for `n` more rows like those held (growing by doubling would copy the
    /// text once more and touch twice the memory).
    pub fn reserve_like(&mut self, n: usize) {
        let have = self.len().max(1);
        self.ends.reserve(n);
        self.key_ends.reserve(n);
        self.text.reserve(self.text.len() / have * n + n);
        self.keys.reserve(self.keys.len() / have * n + n);
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The rows' keys, in row order.
    pub fn keys(&self) -> Vec<Option<&[u8]>> {
        let mut start = 0;
        self.key_ends
            .iter()
            .map(|&e| {
                if e == u64::MAX {
                    return None;
                }
                let k = &self.keys[start..e as usize];
                start = e as usize;
                Some(k)
            })
            .collect()
    }

    #[inline]
    fn line(&self, i: usize) -> &[u8] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        &self.text[start..self.ends[i] as usize]
    }

    /// Append the lines of rows `order[p]`, each followed by CR LF, to `buf` for `p`
    /// from `from` on, stopping once `buf` holds at least `limit` bytes; returns where to
    /// continue (`order.len()` when done).
    pub fn write(&self, order: &[u32], from: usize, buf: &mut Vec<u8>, limit: usize) -> usize {
        let mut p = from;
        while p < order.len() && buf.len() < limit {
            // Rows are read in random order: ask for the lines a few rows ahead (where
            // they end, then their text) so the trips to memory overlap.
            if let Some(&i) = order.get(p + 2 * AHEAD) {
                prefetch(std::ptr::from_ref(&self.ends[i as usize]).cast());
            }
            if let Some(&i) = order.get(p + AHEAD) {
                let i = i as usize;
                let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
                prefetch(self.text[start..].as_ptr());
            }
            buf.extend_from_slice(self.line(order[p] as usize));
            buf.extend_from_slice(b"\r\n");
            p += 1;
        }
        p
    }

    /// Write the lines of rows `order` (each followed by CR LF) to `w`, `chunk` bytes or
    /// so at a time: the next chunk is gathered on another core while one is written.
    pub fn write_all<W: std::io::Write + Send>(&self, order: &[u32], w: &mut W, chunk: usize) -> std::io::Result<()> {
        let (mut ready, mut next) = (Vec::with_capacity(chunk + 4096), Vec::with_capacity(chunk + 4096));
        let mut p = self.write(order, 0, &mut ready, chunk);
        while !ready.is_empty() {
            next.clear();
            let (done, np) = rayon::join(|| w.write_all(&ready), || self.write(order, p, &mut next, chunk));
            done?;
            p = np;
            std::mem::swap(&mut ready, &mut next);
        }
        Ok(())
    }
}

/// Rows one thread builds at least.
const PART_ROWS: usize = 16_384;

/// One CSV field, quoted when it holds a comma, a quote, CR or LF.
fn csv_field(buf: &mut Vec<u8>, f: &[u8]) {
    if !needs_quotes(f) {
        buf.extend_from_slice(f);
        return;
    }
    buf.push(b'"');
    for part in f.split_inclusive(|&b| b == b'"') {
        buf.extend_from_slice(part);
        if part.last() == Some(&b'"') {
            buf.push(b'"');
        }
    }
    buf.push(b'"');
}

/// Whether `f` holds a comma, a quote, CR or LF: eight bytes at a time (fields are
/// mostly short, where a search call per byte class costs more than the field).
#[inline]
fn needs_quotes(f: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let has = |w: u64, c: u8| {
        let x = w ^ (ONES * u64::from(c));
        x.wrapping_sub(ONES) & !x & HIGH
    };
    let mut chunks = f.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().unwrap_or_default());
        if has(w, b',') | has(w, b'"') | has(w, b'\r') | has(w, b'\n') != 0 {
            return true;
        }
    }
    chunks.remainder().iter().any(|&b| matches!(b, b',' | b'"' | b'\r' | b'\n'))
}

/// Rows looked ahead by [`CsvRows::write`].
const AHEAD: usize = 16;

/// Ask for the cache line at `p` (a hint: it never faults).
#[inline(always)]
fn prefetch(p: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint that never faults, whatever the address.
    unsafe {
        std::arch::x86_64::_mm_prefetch(p.cast(), std::arch::x86_64::_MM_HINT_T0)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// Words of a key examined for whether they differ between keys.
const SCAN_WORDS: usize = 16;

/// Words each row carries into the sort.
const K: usize = 3;

/// The comparison sort on integers: each row carries the first [`K`] words in which the
/// keys differ (words every key shares, such as a dataset prefix or the fixed groups of
/// a UUID-like id, cannot order anything), read in row order, so the sort touches no
/// key text; rows that tie on those words are ordered by the rest of their keys, then
/// by row number (so the order is stable and an unstable sort can be used).
fn compared(keys: &[Option<&[u8]>]) -> Sorted {
    let max_len = keys.iter().flatten().map(|k| k.len()).max().unwrap_or(0);
    let words = max_len.div_ceil(8).min(SCAN_WORDS);
    let mut chosen: Vec<usize> = Vec::with_capacity(K);
    if let Some(first) = keys.iter().flatten().next() {
        let base: Vec<(u64, u8)> = (0..words).map(|j| word(first, 8 * j)).collect();
        let mut varies = vec![false; words];
        for k in keys.iter().flatten() {
            for j in 0..words {
                if !varies[j] && word(k, 8 * j) != base[j] {
                    varies[j] = true;
                }
            }
        }
        chosen.extend((0..words).filter(|&j| varies[j]).take(K));
    }
    // Keys agree on every byte before `rest` once they agree on the chosen words.
    let rest = match chosen.last() {
        Some(&j) if chosen.len() == K => 8 * (j + 1),
        _ => 8 * words,
    };
    let mut rows: Vec<Row> = Vec::with_capacity(keys.len());
    let mut nulls = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        match k {
            Some(k) => {
                let mut r = Row {
                    w: [0; K],
                    l: [0; K],
                    row: i as u32,
                };
                for (c, &j) in chosen.iter().enumerate() {
                    (r.w[c], r.l[c]) = word(k, 8 * j);
                }
                rows.push(r);
            }
            None => nulls.push(i as u32),
        }
    }
    rows.par_sort_unstable_by(|a, b| a.words().cmp(&b.words()));
    let key = |r: &Row| {
        keys[r.row as usize]
            .unwrap_or_default()
            .get(rest..)
            .unwrap_or_default()
    };
    rows.par_chunk_by_mut(|a, b| a.words() == b.words())
        .for_each(|run| {
            if run.len() >= 2 {
                run.sort_unstable_by(|a, b| key(a).cmp(key(b)).then(a.row.cmp(&b.row)));
            }
        });
    // Equal keys are neighbours inside a run of equal words.
    let mut repeats = Vec::new();
    let mut p = 0;
    for run in rows.chunk_by(|a, b| a.words() == b.words()) {
        let mut i = 0;
        while i + 1 < run.len() {
            let k = key(&run[i]);
            let mut j = i + 1;
            while j < run.len() && key(&run[j]) == k {
                j += 1;
            }
            if j - i >= 2 {
                repeats.push((p + i) as u32);
            }
            i = j;
        }
        p += run.len();
    }
    let mut order: Vec<u32> = rows.into_iter().map(|r| r.row).collect();
    order.extend(nulls);
    Sorted { order, repeats }
}

#[derive(Clone, Copy)]
struct Row {
    w: [u64; K],
    l: [u8; K],
    row: u32,
}

impl Row {
    #[inline]
    fn words(&self) -> [(u64, u8); K] {
        std::array::from_fn(|c| (self.w[c], self.l[c]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_rng::Rng;

    fn plain(keys: &[Option<&[u8]>]) -> Vec<u32> {
        let mut idx: Vec<u32> = (0..keys.len() as u32).collect();
        // A stable sort: equal keys keep their order.
        idx.sort_by(|&a, &b| match (keys[a as usize], keys[b as usize]) {
            (Some(x), Some(y)) => x.cmp(y),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        });
        idx
    }

    /// Where runs of two or more equal keys begin, read from the keys in `order`.
    fn plain_repeats(keys: &[Option<&[u8]>], order: &[u32]) -> Vec<u32> {
        let k = |p: usize| keys[order[p] as usize];
        (0..order.len().saturating_sub(1))
            .filter(|&p| k(p).is_some() && k(p + 1) == k(p) && (p == 0 || k(p - 1) != k(p)))
            .map(|p| p as u32)
            .collect()
    }

    fn check(owned: &[Option<Vec<u8>>]) {
        let keys: Vec<Option<&[u8]>> = owned.iter().map(|k| k.as_deref()).collect();
        let want = plain(&keys);
        let repeats = plain_repeats(&keys, &want);
        assert_eq!(stable_order(&keys), want, "{owned:?}");
        let c = compared(&keys);
        assert_eq!(
            (c.order, c.repeats),
            (want.clone(), repeats.clone()),
            "compared: {owned:?}"
        );
        if let Some(r) = ranked(&keys) {
            assert_eq!((r.order, r.repeats), (want, repeats), "ranked: {owned:?}");
        }
    }

    #[test]
    fn short_keys_and_their_zero_padded_extensions() {
        let k = |s: &[u8]| Some(s.to_vec());
        check(&[
            k(b"ab\0"),
            k(b"ab"),
            None,
            k(b""),
            k(b"ab\0\0\0\0\0\0\0"),
            k(b"ab"),
            None,
            k(b"\0"),
        ]);
        check(&[
            k(b"abcdefgh2"),
            k(b"abcdefgh1"),
            k(b"abcdefgh"),
            k(b"abcdefgh1"),
            k(b"abcdefg"),
        ]);
        check(&[]);
        check(&[None, None]);
        check(&[
            k("é".as_bytes()),
            k(b"z"),
            k("\u{10000}".as_bytes()),
            k("\u{ffff}".as_bytes()),
        ]);
    }

    #[test]
    fn random_keys_repeated_and_distinct() {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        for round in 0..400 {
            let n = rng.below(300);
            let alphabet = 1 + rng.below(if round % 2 == 0 { 3 } else { 6 });
            let keys: Vec<Option<Vec<u8>>> = (0..n)
                .map(|_| {
                    if rng.below(10) == 0 {
                        return None;
                    }
                    let len = rng.below(if round % 3 == 0 { 3 } else { 12 });
                    Some(
                        (0..len)
                            .map(|_| [0u8, b'a', b'b', 0xC3, 0xA9, 0xFF][rng.below(alphabet)])
                            .collect(),
                    )
                })
                .collect();
            check(&keys);
        }
    }

    #[test]
    fn long_keys_sharing_long_starts() {
        let mut rng = Rng::new(0xD1B5_4A32_D192_ED03);
        let starts: [&[u8]; 3] = [
            b"",
            b"00000071-6f1a-4c9e-9b2d-",
            b"validation/2023/level-1/task-000000000000000000-",
        ];
        for _ in 0..200 {
            let n = rng.below(400);
            let keys: Vec<Option<Vec<u8>>> = (0..n)
                .map(|_| {
                    if rng.below(20) == 0 {
                        return None;
                    }
                    let mut k = rng.pick(&starts).to_vec();
                    k.truncate(k.len().saturating_sub(rng.below(3)));
                    let tail = rng.below(14);
                    k.extend((0..tail).map(|_| rng.pick(&[b'0', b'1', b'\0', 0xC3, 0xA9])));
                    Some(k)
                })
                .collect();
            check(&keys);
        }
    }

    #[test]
    fn keys_that_differ_only_after_the_scanned_words() {
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
        for _ in 0..200 {
            let keys: Vec<Option<Vec<u8>>> = (0..rng.below(300))
                .map(|_| {
                    let mut k = vec![b'x'; 8 * SCAN_WORDS - 1 + rng.below(2)];
                    k.extend((0..rng.below(4)).map(|_| rng.pick(&[b'a', b'b', 0])));
                    Some(k)
                })
                .collect();
            check(&keys);
        }
    }

    #[test]
    fn rows_written_as_csv_in_order() {
        let k = |s: &'static str| Some(s.as_bytes());
        let keys = [k("b"), None, k("a"), k("b"), None, k("a"), k("a"), k("c,d")];
        let other = [k("x"), k(""), k("say \"hi\""), None, k("a\rb"), k("l1\nl2"), k("\""), k("plain, long, with a comma")];
        // Built in two parts, the second appended to the first.
        let (mut rows, mut more) = (CsvRows::default(), CsvRows::default());
        for (n, (a, b)) in keys.iter().zip(other).enumerate() {
            let part = if n < 3 { &mut rows } else { &mut more };
            part.push(&[*a, b, k("1")], &[true, true, false]);
        }
        rows.append(&more);
        assert_eq!(rows.keys(), keys);
        let Sorted { order, repeats } = sort_keys(&rows.keys());
        assert_eq!(order, [2, 5, 6, 0, 3, 7, 1, 4]);
        assert_eq!(repeats, [0, 3]);
        assert!(sort_keys(&keys[..2]).repeats.is_empty());
        let mut buf = Vec::new();
        let mut p = 0;
        let mut chunks = 0;
        while p < order.len() {
            let limit = buf.len() + 4;
            p = rows.write(&order, p, &mut buf, limit);
            chunks += 1;
        }
        let want = "a,\"say \"\"hi\"\"\",1\r\na,\"l1\nl2\",1\r\na,\"\"\"\",1\r\nb,x,1\r\nb,,1\r\n\"c,d\",\"plain, long, with a comma\",1\r\n,,1\r\n,\"a\rb\",1\r\n";
        assert_eq!(String::from_utf8(buf).unwrap(), want);
        assert!(chunks > 1);
        for chunk in [1, 7, 1 << 20] {
            let mut out = Vec::new();
            rows.write_all(&order, &mut out, chunk).unwrap();
            assert_eq!(String::from_utf8(out).unwrap(), want, "chunk {chunk}");
        }
    }

    #[test]
    fn quotes_needed_wherever_the_byte_lies() {
        for len in 0..20 {
            for at in 0..len {
                for c in [b',', b'"', b'\r', b'\n'] {
                    let mut f = vec![b'a'; len];
                    f[at] = c;
                    assert!(needs_quotes(&f), "{len} {at} {c}");
                    f[at] = c ^ 0x80;
                    assert!(!needs_quotes(&f));
                    f[at] = c + 1;
                    assert!(!needs_quotes(&f));
                }
            }
        }
    }

    #[test]
    fn counting_sort_is_taken_only_for_repeated_keys() {
        let many: Vec<Vec<u8>> = (0..1000u32)
            .map(|i| (i % 10).to_string().into_bytes())
            .collect();
        let keys: Vec<Option<&[u8]>> = many.iter().map(|k| Some(k.as_slice())).collect();
        assert!(ranked(&keys).is_some());
        check(&many.iter().map(|k| Some(k.clone())).collect::<Vec<_>>());
        let distinct: Vec<Vec<u8>> = (0..1000u32).map(|i| i.to_string().into_bytes()).collect();
        let keys: Vec<Option<&[u8]>> = distinct.iter().map(|k| Some(k.as_slice())).collect();
        assert!(ranked(&keys).is_none());
    }
}
