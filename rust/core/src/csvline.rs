//! Rows written as CSV text in the dialect of Python's `csv.writer` with its defaults
//! (`,` delimiter, `"` quote, `QUOTE_MINIMAL`, doubled quotes): a field is quoted only
//! when it holds `,`, `"`, CR or LF, its quotes doubled; an empty field and a missing one
//! are both written as nothing, except that a row of one empty field is `""` (so the row
//! is not a blank line). The line end is the caller's.

use crate::batch::{Cursor, StrColumn};

const LO: u64 = 0x0101_0101_0101_0101;
const HI: u64 = 0x8080_8080_8080_8080;

/// Non-zero iff some byte of `w` is zero (exact as a yes/no answer).
#[inline(always)]
fn zero_byte(w: u64) -> u64 {
    w.wrapping_sub(LO) & !w & HI
}

#[inline(always)]
fn special_in(w: u64) -> bool {
    zero_byte(w ^ (LO * b',' as u64))
        | zero_byte(w ^ (LO * b'"' as u64))
        | zero_byte(w ^ (LO * b'\r' as u64))
        | zero_byte(w ^ (LO * b'\n' as u64))
        != 0
}

#[inline(always)]
fn is_special(b: u8) -> bool {
    matches!(b, b',' | b'"' | b'\r' | b'\n')
}

/// Whether `field` must be quoted: it holds `,`, `"`, CR or LF. Eight bytes per step.
#[inline]
pub fn needs_quotes(field: &[u8]) -> bool {
    let mut words = field.chunks_exact(8);
    for w in &mut words {
        if special_in(u64::from_le_bytes(w.try_into().unwrap_or_else(|_| unreachable!()))) {
            return true;
        }
    }
    words.remainder().iter().any(|&b| is_special(b))
}

/// Appends `field` as one CSV field (no delimiter).
#[inline]
pub fn push_field(out: &mut Vec<u8>, field: &str) {
    let bytes = field.as_bytes();
    if !needs_quotes(bytes) {
        out.extend_from_slice(bytes);
        return;
    }
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut start = 0;
    for q in memchr::memchr_iter(b'"', bytes) {
        out.extend_from_slice(&bytes[start..=q]);
        out.push(b'"');
        start = q + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// Appends one row (without its line end); `None` is written as an empty field.
pub fn push_row(out: &mut Vec<u8>, fields: &[Option<&str>]) {
    if let [only] = fields {
        if only.is_none_or(str::is_empty) {
            out.extend_from_slice(b"\"\"");
            return;
        }
    }
    for (i, field) in fields.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        if let Some(f) = field {
            push_field(out, f);
        }
    }
}

/// Copies `src` to `dst` in 8-byte words (the last one overlapping), and tells whether it
/// holds a byte that needs quoting; the words are checked as they pass.
///
/// # Safety
/// `dst` must be valid for `src.len()` bytes of writes and not overlap `src`.
#[inline(always)]
unsafe fn copy_plain(dst: *mut u8, src: &[u8]) -> bool {
    let n = src.len();
    let p = src.as_ptr();
    if n >= 8 {
        let mut special = false;
        let mut i = 0;
        while i + 8 <= n {
            let w = std::ptr::read_unaligned(p.add(i) as *const u64);
            special |= special_in(w);
            std::ptr::write_unaligned(dst.add(i) as *mut u64, w);
            i += 8;
        }
        if i < n {
            let w = std::ptr::read_unaligned(p.add(n - 8) as *const u64);
            special |= special_in(w);
            std::ptr::write_unaligned(dst.add(n - 8) as *mut u64, w);
        }
        special
    } else {
        let mut special = false;
        for (j, &b) in src.iter().enumerate() {
            special |= is_special(b);
            *dst.add(j) = b;
        }
        special
    }
}

/// Rows as Arrow's string-view layout: `views[i]` holds row `i`'s length (low 32 bits),
/// and either the row itself (up to 12 bytes) or its first 4 bytes, the index of its
/// buffer in `buffers` and its offset there.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Lines {
    pub buffers: Vec<Vec<u8>>,
    pub views: Vec<u128>,
}

impl Lines {
    pub fn len(&self) -> usize {
        self.views.len()
    }

    pub fn is_empty(&self) -> bool {
        self.views.is_empty()
    }

    /// Row `i`'s text (copied out of its view when held there).
    pub fn get(&self, i: usize) -> std::borrow::Cow<'_, [u8]> {
        let v = self.views[i].to_le_bytes();
        let len = u32::from_le_bytes([v[0], v[1], v[2], v[3]]) as usize;
        if len <= 12 {
            return v[4..4 + len].to_vec().into();
        }
        let buffer = u32::from_le_bytes([v[8], v[9], v[10], v[11]]) as usize;
        let offset = u32::from_le_bytes([v[12], v[13], v[14], v[15]]) as usize;
        self.buffers[buffer][offset..offset + len].into()
    }
}

/// A row longer than a string view can describe (4 GiB).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLong {
    pub row: usize,
}

impl std::fmt::Display for TooLong {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "row {}: its CSV line is longer than 4 GiB", self.row)
    }
}

fn view(buffer: &[u8], start: usize, index: usize) -> u128 {
    let row = &buffer[start..];
    let mut v = [0u8; 16];
    v[..4].copy_from_slice(&(row.len() as u32).to_le_bytes());
    if row.len() <= 12 {
        v[4..4 + row.len()].copy_from_slice(row);
    } else {
        v[4..8].copy_from_slice(&row[..4]);
        v[8..12].copy_from_slice(&(index as u32).to_le_bytes());
        v[12..16].copy_from_slice(&(start as u32).to_le_bytes());
    }
    u128::from_le_bytes(v)
}

/// The CSV line of every row of the columns (which must have the same length), field `k`
/// of a row read from `columns[k]`.
pub fn lines<C: StrColumn + ?Sized>(columns: &[&C]) -> Result<Lines, TooLong> {
    lines_with(columns, &mut Vec::with_capacity)
}

/// [`lines`], taking each text buffer from `buffer(capacity)` (e.g. a pool of buffers
/// whose pages are already mapped; any capacity will do, the buffer grows as needed).
pub fn lines_with<C: StrColumn + ?Sized>(columns: &[&C], buffer: &mut dyn FnMut(usize) -> Vec<u8>) -> Result<Lines, TooLong> {
    lines_in(columns, u32::MAX as usize, buffer)
}

fn lines_in<C: StrColumn + ?Sized>(columns: &[&C], limit: usize, buffer: &mut dyn FnMut(usize) -> Vec<u8>) -> Result<Lines, TooLong> {
    let n = columns.first().map_or(0, |c| c.len());
    debug_assert!(columns.iter().all(|c| c.len() == n));
    let mut cursors: Vec<_> = columns.iter().map(|c| c.cursor()).collect();
    let mut row: Vec<Option<&str>> = vec![None; columns.len()];
    let mut views = Vec::with_capacity(n);
    let mut buffers = Vec::new();
    let mut buf: Vec<u8> = Vec::new();
    for i in 0..n {
        let mut plain_len = row.len().saturating_sub(1);
        for (slot, cur) in row.iter_mut().zip(cursors.iter_mut()) {
            *slot = cur.get(i);
            plain_len += slot.map_or(0, str::len);
        }
        let mut start = buf.len();
        if start + plain_len > limit {
            if plain_len > limit {
                return Err(TooLong { row: i });
            }
            buffers.push(std::mem::take(&mut buf));
            start = 0;
        }
        if buf.capacity() == 0 {
            // A generous guess from this row saves most regrowth (pages reserved but never
            // written cost nothing; capped, as a long row need not be typical).
            buf = buffer((plain_len + 8).saturating_mul(3).saturating_mul(n - i).min(1 << 27).min(limit) / 2);
            buf.clear();
        }
        buf.reserve(plain_len);
        let mut pos = start;
        let mut quote = row.len() == 1;
        // SAFETY: `buf` has room for `plain_len` more bytes, which is what the unquoted
        // fields and their delimiters take; the length is set only to bytes written.
        unsafe {
            let base = buf.as_mut_ptr();
            for (k, field) in row.iter().enumerate() {
                if quote {
                    break;
                }
                if k > 0 {
                    *base.add(pos) = b',';
                    pos += 1;
                }
                if let Some(f) = field {
                    quote = copy_plain(base.add(pos), f.as_bytes());
                    pos += f.len();
                }
            }
            if !quote {
                buf.set_len(pos);
            }
        }
        if quote {
            // Rare: a field to quote (or a row of one field); written again the plain way.
            push_row(&mut buf, &row);
            if buf.len() > limit {
                buf.truncate(start);
                if start == 0 {
                    return Err(TooLong { row: i });
                }
                buffers.push(std::mem::take(&mut buf));
                push_row(&mut buf, &row);
                if buf.len() > limit {
                    return Err(TooLong { row: i });
                }
                start = 0;
            }
        }
        views.push(view(&buf, start, buffers.len()));
        if buf.len() - start <= 12 {
            buf.truncate(start); // held in the view itself
        }
    }
    if !buf.is_empty() {
        buffers.push(buf);
    }
    Ok(Lines { buffers, views })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn row(fields: &[Option<&str>]) -> String {
        let mut out = Vec::new();
        push_row(&mut out, fields);
        String::from_utf8(out).unwrap()
    }

    /// Written from the dialect, one char at a time (the oracle of the fast path).
    fn slow(fields: &[Option<String>]) -> String {
        if fields.len() == 1 && fields[0].as_deref().unwrap_or("").is_empty() {
            return "\"\"".into();
        }
        let parts: Vec<String> = fields
            .iter()
            .map(|f| {
                let f = f.as_deref().unwrap_or("");
                if f.chars().any(|c| matches!(c, ',' | '"' | '\r' | '\n')) {
                    format!("\"{}\"", f.replace('"', "\"\""))
                } else {
                    f.to_string()
                }
            })
            .collect();
        parts.join(",")
    }

    #[test]
    fn dialect() {
        assert_eq!(row(&[Some("a"), Some("1"), Some("x y"), Some(""), Some("True")]), "a,1,x y,,True");
        assert_eq!(row(&[None, None]), ",");
        assert_eq!(row(&[Some("")]), "\"\"");
        assert_eq!(row(&[None]), "\"\"");
        assert_eq!(row(&[Some("a,b"), Some("say \"hi\""), Some("\"")]), "\"a,b\",\"say \"\"hi\"\"\",\"\"\"\"");
        assert_eq!(row(&[Some("l1\nl2"), Some("cr\r"), Some("\r\n")]), "\"l1\nl2\",\"cr\r\",\"\r\n\"");
        assert_eq!(row(&[Some(" lead"), Some("trail "), Some("\t;'")]), " lead,trail ,\t;'");
        assert_eq!(row(&[Some("é日\u{2028}"), Some("\0")]), "é日\u{2028},\0");
        assert_eq!(row(&[]), "");
    }

    #[test]
    fn special_byte_at_every_position_of_a_word() {
        for len in 0..40 {
            for pos in 0..len {
                for b in [b',', b'"', b'\r', b'\n'] {
                    let mut s = vec![b'x'; len];
                    s[pos] = b;
                    assert!(needs_quotes(&s), "{len} {pos} {b}");
                }
                // Bytes next to the special ones (and high bytes) are not special.
                let s: Vec<u8> = (0..len).map(|i| [b'+', b'-', b'!', b'#', 0x0b, 0x0c, 0x0e, 0x09, 0xe6, 0x80, 0x00][(i + pos) % 11]).collect();
                assert!(!needs_quotes(&s));
            }
        }
    }

    #[test]
    fn lines_of_columns() {
        let a: Vec<Option<&str>> = vec![Some("t1"), None, Some("x,y")];
        let b: Vec<Option<&str>> = vec![Some("1"), Some("2"), None];
        let got = lines(&[&a[..], &b[..]]).unwrap();
        assert_eq!(got.len(), 3);
        assert_eq!(&*got.get(0), b"t1,1");
        assert_eq!(&*got.get(1), b",2");
        assert_eq!(&*got.get(2), b"\"x,y\",");
        assert_eq!(got.buffers, Vec::<Vec<u8>>::new()); // all short: held in the views
        assert_eq!(lines::<[Option<&str>]>(&[]).unwrap(), Lines::default());
        let one: Vec<Option<&str>> = vec![None, Some(""), Some("x")];
        let got = lines(&[&one[..]]).unwrap();
        assert_eq!((&*got.get(0), &*got.get(1), &*got.get(2)), (&b"\"\""[..], &b"\"\""[..], &b"x"[..]));
    }

    fn check_columns(columns: &[Vec<Option<String>>], limit: usize) -> Result<(), TestCaseError> {
        let views: Vec<Vec<Option<&str>>> = columns.iter().map(|c| c.iter().map(|f| f.as_deref()).collect()).collect();
        let refs: Vec<&[Option<&str>]> = views.iter().map(|c| &c[..]).collect();
        // Buffers handed in dirty and too small must not matter.
        let got = lines_in(&refs, limit, &mut |_| b"stale".to_vec()).unwrap();
        let n = columns.first().map_or(0, |c| c.len());
        prop_assert_eq!(got.len(), n);
        for i in 0..n {
            let fields: Vec<Option<String>> = columns.iter().map(|c| c[i].clone()).collect();
            let line = got.get(i);
            prop_assert_eq!(std::str::from_utf8(&line).unwrap(), slow(&fields));
        }
        prop_assert!(got.buffers.iter().all(|b| b.len() <= limit));
        Ok(())
    }

    #[test]
    fn rows_past_the_limit() {
        let a: Vec<Option<&str>> = vec![Some("0123456789abcdef"), Some("x,\"yz\"0123456789"), Some("0123456789abcdef")];
        let got = lines_in(&[&a[..]], 24, &mut Vec::with_capacity).unwrap();
        assert_eq!(got.buffers.len(), 3);
        assert_eq!(&*got.get(1), b"\"x,\"\"yz\"\"0123456789\"");
        assert_eq!(lines_in(&[&a[..]], 19, &mut Vec::with_capacity), Err(TooLong { row: 1 })); // 20 bytes once quoted
        assert_eq!(lines_in(&[&a[..]], 15, &mut Vec::with_capacity), Err(TooLong { row: 0 }));
    }

    proptest! {
        #[test]
        fn fast_equals_slow(fields in proptest::collection::vec(
            proptest::option::of(proptest::string::string_regex("[a-z\",\r\n \u{e9}\u{65e5}\u{1f600}\0]{0,40}").unwrap()), 0..6)) {
            let view: Vec<Option<&str>> = fields.iter().map(|f| f.as_deref()).collect();
            prop_assert_eq!(row(&view), slow(&fields));
        }

        #[test]
        fn columns_of_lines(columns in (1usize..6, 0usize..40).prop_flat_map(|(k, n)| proptest::collection::vec(
            proptest::collection::vec(proptest::option::of(proptest::string::string_regex("[a-z\",\r\n \u{e9}]{0,30}").unwrap()), n), k)),
            limit in 320usize..600) {
            check_columns(&columns, limit)?;
            check_columns(&columns, u32::MAX as usize)?;
        }

        #[test]
        fn any_text(fields in proptest::collection::vec(proptest::option::of(any::<String>()), 1..6)) {
            let view: Vec<Option<&str>> = fields.iter().map(|f| f.as_deref()).collect();
            prop_assert_eq!(row(&view), slow(&fields));
        }
    }
}
