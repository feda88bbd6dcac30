use std::mem::MaybeUninit;

use serde_json::Value;

/// A key as it is written after the previous entry: `, "name": ` (built at compile time by [`key!`], so
/// writing it is one copy of a known length, which the compiler inlines).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Key(pub(crate) &'static str);

/// `key!("pid")` is the [`Key`] `, "pid": `. The name must need no JSON escaping (checked in tests of
/// every event kind: their output parses).
macro_rules! key {
    ($name:literal) => {
        $crate::trace::json_object::Key(concat!(", \"", $name, "\": "))
    };
}
pub(crate) use key;

/// A key with a string value, both literals, as one piece of text (`, "ph": "X"`): written with one
/// copy, nothing to escape at run time. The value must need no escaping (no `"`, `\\` or control
/// characters); the tests check every use renders as [`JsonObject::str`] would.
macro_rules! pair {
    ($name:literal, $value:literal) => {
        $crate::trace::json_object::Key(concat!(", \"", $name, "\": \"", $value, "\""))
    };
}
pub(crate) use pair;

/// Writes one JSON object into a byte buffer, Kineto style (`"key": value`, entries separated by `, `).
///
/// This is the renderer's inner loop, so it writes bytes directly: strings (keys and values) are escaped
/// by [`write_json_str`] (a copy when nothing needs escaping, which is the common case), integers by
/// [`write_u64`] (the digits made in the buffer itself, as `itoa` would write them), floats by `ryu` (a
/// non-finite value is written as `null`), and values already encoded (a name's or a category's cached
/// JSON string) are copied as they are. The output is valid JSON whatever the names hold.
/// Call [`end`](Self::end) to close the object.
pub(crate) struct JsonObject<'a> {
    out: &'a mut Vec<u8>,
    empty: bool,
}

impl<'a> JsonObject<'a> {
    /// Opens an object at the end of `out`.
    #[inline]
    pub(crate) fn begin(out: &'a mut Vec<u8>) -> Self {
        out.push(b'{');
        JsonObject { out, empty: true }
    }

    #[inline]
    fn key(&mut self, key: Key) {
        let text = key.0.as_bytes();
        // The first entry has no separator before it.
        self.out.extend_from_slice(if self.empty { &text[2..] } else { text });
        self.empty = false;
    }

    /// A key known only at run time (escaped).
    fn dyn_key(&mut self, key: &str) {
        if !self.empty {
            self.out.extend_from_slice(b", ");
        }
        self.empty = false;
        write_json_str(self.out, key);
        self.out.extend_from_slice(b": ");
    }

    /// `"key": "value"`.
    /// A key and its value made by [`pair!`].
    #[inline]
    pub(crate) fn pair(&mut self, pair: Key) -> &mut Self {
        self.key(pair);
        self
    }

    #[inline]
    pub(crate) fn str(&mut self, key: Key, value: &str) -> &mut Self {
        self.key(key);
        write_json_str(self.out, value);
        self
    }

    /// `"key": <encoded>`: `encoded` is already a JSON value (e.g. a quoted, escaped name).
    #[inline]
    pub(crate) fn encoded(&mut self, key: Key, encoded: &[u8]) -> &mut Self {
        self.key(key);
        self.out.extend_from_slice(encoded);
        self
    }

    /// `"key": 123`.
    #[inline]
    pub(crate) fn uint(&mut self, key: Key, value: u64) -> &mut Self {
        self.key(key);
        write_u64(self.out, value);
        self
    }

    /// `"key": -123`.
    #[inline]
    pub(crate) fn int(&mut self, key: Key, value: i64) -> &mut Self {
        self.key(key);
        if value < 0 {
            self.out.push(b'-');
        }
        write_u64(self.out, value.unsigned_abs());
        self
    }

    /// `"key": 1.5` (a non-finite value is written as `null`, as serde_json does).
    #[inline]
    pub(crate) fn float(&mut self, key: Key, value: f64) -> &mut Self {
        self.key(key);
        write_f64(self.out, value);
        self
    }

    /// `"key": 123` when `value` is `Some`.
    pub(crate) fn opt_uint(&mut self, key: Key, value: Option<u64>) -> &mut Self {
        if let Some(value) = value {
            self.uint(key, value);
        }
        self
    }

    /// `"key": -123` when `value` is `Some`.
    pub(crate) fn opt_int(&mut self, key: Key, value: Option<i64>) -> &mut Self {
        if let Some(value) = value {
            self.int(key, value);
        }
        self
    }

    /// `"key": [a, b, c]`.
    #[inline]
    pub(crate) fn uints(&mut self, key: Key, values: &[u64]) -> &mut Self {
        self.key(key);
        self.out.push(b'[');
        for (i, value) in values.iter().enumerate() {
            if i > 0 {
                self.out.extend_from_slice(b", ");
            }
            write_u64(self.out, *value);
        }
        self.out.push(b']');
        self
    }

    /// `"key": 12.345`: nanoseconds written as microseconds with exactly 3 decimals.
    #[inline]
    pub(crate) fn micros(&mut self, key: Key, ns: i128) -> &mut Self {
        self.key(key);
        write_micros(self.out, ns);
        self
    }

    /// `"key": 1.5` with a key known only at run time.
    pub(crate) fn float_dyn(&mut self, key: &str, value: f64) -> &mut Self {
        self.dyn_key(key);
        write_f64(self.out, value);
        self
    }

    /// `"key": <any JSON value>` with a key known only at run time.
    pub(crate) fn value_dyn(&mut self, key: &str, value: &Value) -> &mut Self {
        self.dyn_key(key);
        // Writing to a Vec cannot fail, and a Value always serializes.
        let _ = serde_json::to_writer(&mut *self.out, value);
        self
    }

    /// Opens a nested object under `key`; close it with `end` before writing to this one again.
    #[inline]
    pub(crate) fn object(&mut self, key: Key) -> JsonObject<'_> {
        self.key(key);
        JsonObject::begin(self.out)
    }

    /// Closes the object.
    #[inline]
    pub(crate) fn end(self) {
        self.out.push(b'}');
    }
}

/// `ns` nanoseconds as microseconds with 3 decimals, e.g. `-1.005` for -1005 ns; exact, no float rounding.
#[inline]
pub(crate) fn write_micros(out: &mut Vec<u8>, ns: i128) {
    if ns < 0 {
        out.push(b'-');
    }
    let abs = ns.unsigned_abs();
    // u64 is the common case, and its division by a constant is a multiplication (u128's is a call).
    let Ok(small) = u64::try_from(abs) else {
        let mut digits = itoa::Buffer::new();
        out.extend_from_slice(digits.format(abs / 1000).as_bytes());
        return write_fraction(out, (abs % 1000) as u32);
    };
    // The whole part (17 digits at most), the point and 3 decimals, made in the buffer's spare room (no
    // intermediate buffer, no call to copy a length known only at run time).
    out.reserve(24);
    let len = out.len();
    let frac = (small % 1000) as usize;
    let text = spare(out);
    let n = put_u64(text, small / 1000);
    text[n].write(b'.');
    text[n + 1].write(b'0' + (frac / 100) as u8);
    text[n + 2].write(DIGIT_PAIRS[frac % 100 * 2]);
    text[n + 3].write(DIGIT_PAIRS[frac % 100 * 2 + 1]);
    // SAFETY: the first n + 4 bytes of the spare room (24 reserved, n <= 20) were written just above.
    unsafe { out.set_len(len + n + 4) };
}

/// The first 24 bytes of `out`'s spare room, which the caller reserved.
#[inline]
fn spare(out: &mut Vec<u8>) -> &mut [MaybeUninit<u8>; 24] {
    (&mut out.spare_capacity_mut()[..24]).try_into().expect("24 bytes reserved")
}

/// `.ddd` for `frac` thousandths.
fn write_fraction(out: &mut Vec<u8>, frac: u32) {
    out.extend_from_slice(&[
        b'.',
        b'0' + (frac / 100) as u8,
        b'0' + (frac / 10 % 10) as u8,
        b'0' + (frac % 10) as u8,
    ]);
}

/// "00", "01", ... "99".
const DIGIT_PAIRS: &[u8; 200] = b"\
    0001020304050607080910111213141516171819\
    2021222324252627282930313233343536373839\
    4041424344454647484950515253545556575859\
    6061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899";

/// The number of decimal digits of `v` (1 for 0).
#[inline]
fn decimal_len(v: u64) -> usize {
    const POWERS: [u64; 20] = {
        let mut p = [1u64; 20];
        let mut i = 1;
        while i < 20 {
            p[i] = p[i - 1] * 10;
            i += 1;
        }
        p
    };
    // floor(log10(2^bits)) from the bit length, then one comparison (1233 / 4096 ~ log10(2)).
    let bits = 64 - (v | 1).leading_zeros() as usize;
    let guess = (bits * 1233) >> 12;
    guess + usize::from((v | 1) >= POWERS[guess])
}

/// `v` in decimal at the start of `text`; its length (20 at most).
#[inline]
fn put_u64(text: &mut [MaybeUninit<u8>; 24], mut v: u64) -> usize {
    let n = decimal_len(v);
    let mut end = n;
    // Four digits per 64-bit division, then their two pairs by 32-bit arithmetic.
    while v >= 10_000 {
        let group = (v % 10_000) as u32;
        v /= 10_000;
        let (high, low) = ((group / 100) as usize * 2, (group % 100) as usize * 2);
        end -= 4;
        text[end].write(DIGIT_PAIRS[high]);
        text[end + 1].write(DIGIT_PAIRS[high + 1]);
        text[end + 2].write(DIGIT_PAIRS[low]);
        text[end + 3].write(DIGIT_PAIRS[low + 1]);
    }
    if v >= 100 {
        let pair = (v % 100) as usize * 2;
        v /= 100;
        end -= 2;
        text[end].write(DIGIT_PAIRS[pair]);
        text[end + 1].write(DIGIT_PAIRS[pair + 1]);
    }
    // The one or two digits left go first: then every byte of text[..n] was written, which the callers'
    // `set_len` relies on (checked here, not trusted to `decimal_len`).
    if v >= 10 {
        assert!(end == 2, "decimal_len counts the digits written");
        let pair = v as usize * 2;
        text[0].write(DIGIT_PAIRS[pair]);
        text[1].write(DIGIT_PAIRS[pair + 1]);
    } else {
        assert!(end == 1, "decimal_len counts the digits written");
        text[0].write(b'0' + v as u8);
    }
    n
}

/// `v` in decimal, as `itoa` writes it, made in the buffer's spare room (the renderer writes a dozen
/// integers per row, most of them small: no intermediate buffer, no call to copy their few digits).
#[inline]
pub(crate) fn write_u64(out: &mut Vec<u8>, v: u64) {
    if v < 10 {
        out.push(b'0' + v as u8);
        return;
    }
    out.reserve(24);
    let len = out.len();
    let n = put_u64(spare(out), v);
    // SAFETY: the first n bytes of the spare room (24 reserved, n <= 20) were written just above.
    unsafe { out.set_len(len + n) };
}

/// A float as JSON: shortest round-trip digits, `null` when not finite.
#[inline]
pub(crate) fn write_f64(out: &mut Vec<u8>, value: f64) {
    if value.is_finite() {
        out.extend_from_slice(ryu::Buffer::new().format_finite(value).as_bytes());
    } else {
        out.extend_from_slice(b"null");
    }
}

/// Whether a byte must be escaped inside a JSON string (`"`, `\`, control characters).
#[inline]
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Whether any byte of `bytes` must be escaped, 8 bytes at a time: a word has a byte below 0x20, a quote
/// or a backslash exactly when the classic "has a zero byte / has a byte less than n" bit tests say so
/// (exact as a yes or no; bytes of 0x80 and more, UTF-8, never match).
#[inline]
fn any_needs_escape(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let word_needs = |x: u64| {
        let below_space = x.wrapping_sub(ONES * 0x20) & !x & HIGH;
        let q = x ^ (ONES * u64::from(b'"'));
        let quote = q.wrapping_sub(ONES) & !q & HIGH;
        let b = x ^ (ONES * u64::from(b'\\'));
        let backslash = b.wrapping_sub(ONES) & !b & HIGH;
        below_space | quote | backslash != 0
    };
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        if word_needs(u64::from_le_bytes(word.try_into().expect("8 bytes"))) {
            return true;
        }
    }
    let rest = words.remainder();
    if bytes.len() >= 8 {
        // The last 8 bytes as one word (overlapping bytes already checked are checked again).
        let tail = &bytes[bytes.len() - 8..];
        return !rest.is_empty() && word_needs(u64::from_le_bytes(tail.try_into().expect("8 bytes")));
    }
    rest.iter().any(|&b| needs_escape(b))
}

/// `s` as a quoted JSON string: copied as it is up to each byte that needs escaping (`\"`, `\\`, `\n`,
/// `\t`, `\r`, `\b`, `\f`, `\u00XX` for other control characters; other characters, UTF-8 included,
/// stay as they are, as serde_json writes them).
#[inline]
pub(crate) fn write_json_str(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    // The common case: nothing to escape, found 8 bytes at a time, then one copy.
    if !any_needs_escape(bytes) {
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    let mut start = 0;
    for (i, &b) in bytes.iter().enumerate() {
        if !needs_escape(b) {
            continue;
        }
        out.extend_from_slice(&bytes[start..i]);
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\r' => out.extend_from_slice(b"\\r"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x0c => out.extend_from_slice(b"\\f"),
            _ => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                out.extend_from_slice(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(b >> 4)],
                    HEX[usize::from(b & 15)],
                ]);
            }
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_literal_pair_renders_as_the_key_and_the_escaped_value_would() {
        // Every pair! the renderer uses.
        let pairs = [
            (pair!("ph", "X"), "ph", "X"),
            (pair!("ph", "M"), "ph", "M"),
            (pair!("ph", "C"), "ph", "C"),
            (pair!("ph", "i"), "ph", "i"),
            (pair!("ph", "s"), "ph", "s"),
            (pair!("ph", "f"), "ph", "f"),
            (pair!("s", "t"), "s", "t"),
            (pair!("bp", "e"), "bp", "e"),
            (pair!("cat", "ac2g"), "cat", "ac2g"),
            (pair!("name", "ac2g"), "name", "ac2g"),
            (pair!("cat", "trace_span"), "cat", "trace_span"),
            (pair!("name", "trace span"), "name", "trace span"),
        ];
        for (pair, name, value) in pairs {
            for first in [true, false] {
                let (mut a, mut b) = (Vec::new(), Vec::new());
                let mut o = JsonObject::begin(&mut a);
                if !first {
                    o.uint(key!("id"), 1);
                }
                o.pair(pair);
                o.end();
                let mut o = JsonObject::begin(&mut b);
                if !first {
                    o.uint(key!("id"), 1);
                }
                o.dyn_key(name);
                write_json_str(o.out, value);
                o.end();
                assert_eq!(String::from_utf8(a).unwrap(), String::from_utf8(b).unwrap());
            }
        }
    }

    #[test]
    fn micros_have_three_exact_decimals() {
        let text = |ns| {
            let mut out = Vec::new();
            write_micros(&mut out, ns);
            String::from_utf8(out).unwrap()
        };
        assert_eq!(text(0), "0.000");
        assert_eq!(text(1), "0.001");
        assert_eq!(text(1_234_567), "1234.567");
        assert_eq!(text(-1005), "-1.005");
        assert_eq!(text(-5), "-0.005");
        assert_eq!(text(1_700_000_000_123_456_789), "1700000000123456.789");
        assert_eq!(text(i128::from(u64::MAX) * 1000 + 7), format!("{}.007", u64::MAX));
    }

    #[test]
    fn strings_are_escaped_and_the_object_parses() {
        let mut out = Vec::new();
        let mut o = JsonObject::begin(&mut out);
        o.str(key!("name"), "a \"quoted\"\n\\ name\u{1}\u{8}\u{c}\r\t\u{1f} é €")
            .uint(key!("n"), 7)
            .float(key!("bw"), f64::NAN);
        o.float(key!("half"), 0.5).int(key!("neg"), i64::MIN).float_dyn("dyn \"key\"", 1.0);
        let mut inner = o.object(key!("args"));
        inner.uints(key!("grid"), &[1, 2, 3]).int(key!("neg"), -4).encoded(key!("pre"), b"\"x\"");
        inner.end();
        o.end();
        let parsed: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(parsed["name"], "a \"quoted\"\n\\ name\u{1}\u{8}\u{c}\r\t\u{1f} é €");
        assert_eq!(parsed["n"], 7);
        assert_eq!(parsed["dyn \"key\""], 1.0);
        assert!(parsed["bw"].is_null());
        assert_eq!(parsed["half"], 0.5);
        assert_eq!(parsed["neg"], i64::MIN);
        assert_eq!(parsed["args"]["grid"], serde_json::json!([1, 2, 3]));
        assert_eq!(parsed["args"]["neg"], -4);
        assert_eq!(parsed["args"]["pre"], "x");
        assert!(String::from_utf8(out).unwrap().starts_with("{\"name\": "));
    }

    #[test]
    fn integers_are_written_as_itoa_writes_them() {
        let mut values = vec![0, 1, 9, 10, 11, 99, 100, 101, 999, 1000, u64::MAX, u64::MAX - 1];
        for k in 1..20 {
            let p = 10u64.pow(k);
            values.extend([p - 1, p, p + 1, p.saturating_mul(2) - 1]);
        }
        // And a spread of others (xorshift).
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..10_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            values.extend([x, x >> (x % 64)]);
        }
        for v in values {
            let mut out = b"x".to_vec();
            write_u64(&mut out, v);
            assert_eq!(&out[1..], itoa::Buffer::new().format(v).as_bytes(), "{v}");
            let mut out = Vec::new();
            let mut o = JsonObject::begin(&mut out);
            o.int(key!("n"), v as i64);
            o.end();
            assert_eq!(out, format!("{{\"n\": {}}}", v as i64).into_bytes());
            for ns in [i128::from(v), -i128::from(v)] {
                let mut out = Vec::new();
                write_micros(&mut out, ns);
                let sign = if ns < 0 { "-" } else { "" };
                let abs = ns.unsigned_abs();
                assert_eq!(
                    String::from_utf8(out).unwrap(),
                    format!("{sign}{}.{:03}", abs / 1000, abs % 1000)
                );
            }
        }
    }

    #[test]
    fn an_escape_is_found_at_every_offset_of_every_length() {
        // Each escaped byte (and a harmless one) at each place of strings of 0 to 40 bytes, in ASCII and
        // in text with multi-byte characters around it.
        for len in 0..40 {
            for at in 0..len {
                for special in [b'"', b'\\', b'\n', 0x00, 0x1f, b' ', b'a', 0x7f] {
                    let mut bytes = vec![b'a'; len];
                    bytes[at] = special;
                    let text = String::from_utf8(bytes).unwrap();
                    let expected = serde_json::to_string(&text).unwrap();
                    let mut ours = Vec::new();
                    write_json_str(&mut ours, &text);
                    assert_eq!(String::from_utf8(ours).unwrap(), expected, "{len} {at} {special}");
                    let wide = format!("é{text}€");
                    let mut ours = Vec::new();
                    write_json_str(&mut ours, &wide);
                    assert_eq!(String::from_utf8(ours).unwrap(), serde_json::to_string(&wide).unwrap());
                }
            }
        }
    }

    #[test]
    fn random_strings_are_escaped_as_serde_json_escapes_them() {
        let pieces =
            ["a", "Z", " ", "\"", "\\", "\n", "\u{0}", "\u{1f}", "\u{7f}", "é", "€", "\u{10000}", "<>"];
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let len = (x % 40) as usize;
            let mut text = String::new();
            let mut y = x;
            for _ in 0..len {
                y = y.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                // Mostly plain letters, as names are; now and then anything of the list.
                let piece = if y >> 60 < 12 { "a" } else { pieces[(y >> 32) as usize % pieces.len()] };
                text.push_str(piece);
            }
            let mut ours = Vec::new();
            write_json_str(&mut ours, &text);
            assert_eq!(String::from_utf8(ours).unwrap(), serde_json::to_string(&text).unwrap(), "{text:?}");
        }
    }

    #[test]
    fn every_byte_is_escaped_as_serde_json_escapes_it() {
        let all: String = (0u8..0x80).map(char::from).chain("é€\u{10000}".chars()).collect();
        let mut ours = Vec::new();
        write_json_str(&mut ours, &all);
        assert_eq!(String::from_utf8(ours).unwrap(), serde_json::to_string(&all).unwrap());
    }
}
