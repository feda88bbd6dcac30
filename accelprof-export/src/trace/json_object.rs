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
/// `itoa`, floats by `ryu` (a non-finite value is written as `null`), and values already encoded (a
/// name's cached JSON string) are copied as they are. The output is valid JSON whatever the names hold.
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
        self.out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
        self
    }

    /// `"key": -123`.
    #[inline]
    pub(crate) fn int(&mut self, key: Key, value: i64) -> &mut Self {
        self.key(key);
        self.out.extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
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
        let mut digits = itoa::Buffer::new();
        for (i, value) in values.iter().enumerate() {
            if i > 0 {
                self.out.extend_from_slice(b", ");
            }
            self.out.extend_from_slice(digits.format(*value).as_bytes());
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
    let mut digits = itoa::Buffer::new();
    // u64 is the common case, and its division by a constant is a multiplication (u128's is a call).
    let (whole, frac) = match u64::try_from(abs) {
        Ok(small) => (digits.format(small / 1000), (small % 1000) as u32),
        Err(_) => (digits.format(abs / 1000), (abs % 1000) as u32),
    };
    out.extend_from_slice(whole.as_bytes());
    out.extend_from_slice(&[
        b'.',
        b'0' + (frac / 100) as u8,
        b'0' + (frac / 10 % 10) as u8,
        b'0' + (frac % 10) as u8,
    ]);
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

/// `s` as a quoted JSON string: copied as it is up to each byte that needs escaping (`\"`, `\\`, `\n`,
/// `\t`, `\r`, `\b`, `\f`, `\u00XX` for other control characters; other characters, UTF-8 included,
/// stay as they are, as serde_json writes them).
#[inline]
pub(crate) fn write_json_str(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
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
    fn every_byte_is_escaped_as_serde_json_escapes_it() {
        let all: String = (0u8..0x80).map(char::from).chain("é€\u{10000}".chars()).collect();
        let mut ours = Vec::new();
        write_json_str(&mut ours, &all);
        assert_eq!(String::from_utf8(ours).unwrap(), serde_json::to_string(&all).unwrap());
    }
}
