//! Lone surrogates without a second code path.
//!
//! A Python `str` may hold lone surrogates (U+D800..U+DFFF, e.g. from JSON `"\ud800"`),
//! which UTF-8 cannot carry; encoded with `'surrogatepass'` each becomes the three bytes
//! `ED A0..BF 80..BF` (generalised UTF-8, as WTF-8 writes a lone surrogate). Every scorer
//! here treats such a code point exactly as it treats a Private Use character of planes
//! 15/16: not space, not `\w`, no digit or decimal, its own lowercase, not printable (so
//! quoted as `\u{hex}`), refused by `float()`/`int()`, deleted by the JavaScript
//! normaliser (one UTF-16 unit there, two here: both deleted). So the surrogates of a call
//! are swapped for a 2048-wide window of such characters that none of the call's texts
//! uses, the core runs unchanged on valid UTF-8, and its outputs are mapped back.

/// Width of a window: one per possible lone surrogate.
pub const WIDTH: u32 = 0x800;

/// Windows wholly inside the Private Use planes 15 and 16, clear of their last two code
/// points (noncharacters, another category): 31 per plane.
const WINDOWS: usize = 62;

fn window_base(i: usize) -> u32 {
    let plane = if i < 31 { 0xF0000 } else { 0x100000 };
    plane + (i as u32 % 31) * WIDTH
}

fn window_of(cp: u32) -> Option<usize> {
    let (plane, first) = match cp {
        0xF0000..=0xFFFFF => (0xF0000, 0),
        0x100000..=0x10FFFF => (0x100000, 31),
        _ => return None,
    };
    let i = ((cp - plane) / WIDTH) as usize;
    (i < 31).then_some(first + i)
}

/// Does generalised UTF-8 `b` hold a lone surrogate?
pub fn has_surrogate(b: &[u8]) -> bool {
    b.windows(2).any(|w| w[0] == 0xED && w[1] >= 0xA0)
}

/// Decode generalised UTF-8 (valid UTF-8 plus surrogates) into code points.
fn code_points(b: &[u8]) -> impl Iterator<Item = u32> + '_ {
    let mut i = 0;
    std::iter::from_fn(move || {
        let lead = *b.get(i)?;
        let (len, init) = match lead {
            0x00..=0x7F => (1, lead as u32),
            0xC0..=0xDF => (2, (lead & 0x1F) as u32),
            0xE0..=0xEF => (3, (lead & 0x0F) as u32),
            _ => (4, (lead & 0x07) as u32),
        };
        let end = (i + len).min(b.len());
        let cp = b[i + 1..end].iter().fold(init, |acc, &c| (acc << 6) | (c & 0x3F) as u32);
        i = end;
        Some(cp)
    })
}

/// Why no window could be chosen: the texts use every one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AllWindowsUsed;

impl std::fmt::Display for AllWindowsUsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(
            "text holding lone surrogates also uses all 62 Private Use windows of planes 15-16 \
             (characters or \\u{...} escapes), so its surrogates cannot be carried natively",
        )
    }
}

/// The window a call's surrogates are carried in: U+D800+k ↔ `base`+k.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Substitution {
    base: u32,
}

impl Substitution {
    /// A window that no text uses, neither as a character nor as a `\u{hex}` escape
    /// written in the text (any case, so that lowercasing cannot make one): then every
    /// window character and every window escape in an output stands for a surrogate.
    pub fn choose<'a>(texts: impl IntoIterator<Item = &'a [u8]>) -> Result<Self, AllWindowsUsed> {
        let mut used = [false; WINDOWS];
        for t in texts {
            for cp in code_points(t) {
                if let Some(w) = window_of(cp) {
                    used[w] = true;
                }
            }
            for v in escapes(t) {
                if let Some(w) = window_of(v) {
                    used[w] = true;
                }
            }
        }
        let free = used.iter().position(|u| !u).ok_or(AllWindowsUsed)?;
        Ok(Substitution { base: window_base(free) })
    }

    /// `text` (generalised UTF-8) with each surrogate replaced by its window character.
    pub fn encode(&self, text: &[u8]) -> String {
        let mut out = String::with_capacity(text.len() + 8);
        for cp in code_points(text) {
            let cp = if (0xD800..0xE000).contains(&cp) { self.base + (cp - 0xD800) } else { cp };
            out.push(char::from_u32(cp).expect("generalised UTF-8 decodes to scalars once surrogates are swapped"));
        }
        out
    }

    fn surrogate(&self, cp: u32) -> Option<u32> {
        (self.base..self.base + WIDTH).contains(&cp).then(|| 0xD800 + (cp - self.base))
    }

    /// An output of the core back in generalised UTF-8: window characters become their
    /// surrogates, and `\u{hex}` escapes of window characters (quoted explanations)
    /// become the escapes of the surrogates.
    pub fn decode(&self, s: &str) -> Vec<u8> {
        let mut out = Vec::with_capacity(s.len());
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'\\' {
                if let Some((v, len)) = escape_at(&b[i..]) {
                    if let Some(sur) = self.surrogate(v) {
                        out.extend_from_slice(format!("\\u{{{sur:x}}}").as_bytes());
                        i += len;
                        continue;
                    }
                }
            }
            let c = s[i..].chars().next().expect("i is at a char boundary");
            match self.surrogate(c as u32) {
                Some(sur) => out.extend_from_slice(&[0xED, 0x80 | ((sur >> 6) & 0x3F) as u8, 0x80 | (sur & 0x3F) as u8]),
                None => out.extend_from_slice(&b[i..i + c.len_utf8()]),
            }
            i += c.len_utf8();
        }
        out
    }
}

/// `\u{hex}` (either case of `u` and of the digits) at the start of `b`: (value, length).
fn escape_at(b: &[u8]) -> Option<(u32, usize)> {
    if b.len() < 4 || b[0] != b'\\' || !matches!(b[1], b'u' | b'U') || b[2] != b'{' {
        return None;
    }
    let mut v: u64 = 0;
    let mut j = 3;
    while j < b.len() && b[j].is_ascii_hexdigit() {
        v = (v << 4 | (b[j] as char).to_digit(16)? as u64).min(u64::from(u32::MAX));
        j += 1;
    }
    (j > 3 && j < b.len() && b[j] == b'}').then_some((v as u32, j + 1))
}

fn escapes(b: &[u8]) -> impl Iterator<Item = u32> + '_ {
    (0..b.len()).filter(move |&i| b[i] == b'\\').filter_map(move |i| escape_at(&b[i..]).map(|(v, _)| v))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wtf8(units: &[u32]) -> Vec<u8> {
        let mut out = Vec::new();
        for &cp in units {
            if (0xD800..0xE000).contains(&cp) {
                out.extend_from_slice(&[0xED, 0x80 | ((cp >> 6) & 0x3F) as u8, 0x80 | (cp & 0x3F) as u8]);
            } else {
                let mut buf = [0; 4];
                out.extend_from_slice(char::from_u32(cp).unwrap().encode_utf8(&mut buf).as_bytes());
            }
        }
        out
    }

    #[test]
    fn round_trip_and_escapes() {
        let t = wtf8(&[b'a' as u32, 0xD800, 0xDFFF, 0x4E00, 0x1F600]);
        assert!(has_surrogate(&t));
        let s = Substitution::choose([t.as_slice()]).unwrap();
        assert_eq!(s.base, 0xF0000);
        let enc = s.encode(&t);
        assert_eq!(enc.chars().map(|c| c as u32).collect::<Vec<_>>(), [0x61, 0xF0000, 0xF07FF, 0x4E00, 0x1F600]);
        assert_eq!(s.decode(&enc), t);
        assert_eq!(s.decode("\"\\u{f0000}\\u{f07ff}\\u{f0800}\\u{3000}\""), b"\"\\u{d800}\\u{dfff}\\u{f0800}\\u{3000}\"".to_vec());
    }

    #[test]
    fn windows_in_use_are_skipped() {
        let t = wtf8(&[0xD800, 0xF0001, 0x100000]);
        let esc = b"\\U{F0FFF} and \\u{00f1000}".to_vec();
        let s = Substitution::choose([t.as_slice(), esc.as_slice()]).unwrap();
        assert_eq!(s.base, 0xF0000 + 3 * WIDTH);
        let all: Vec<u32> = (0..WINDOWS).map(window_base).collect();
        let mut text = String::new();
        for b in all {
            text.push(char::from_u32(b + 5).unwrap());
        }
        assert_eq!(Substitution::choose([text.as_bytes()]), Err(AllWindowsUsed));
        assert!(!has_surrogate("日本語 \u{FFFD}".as_bytes()));
    }
}
