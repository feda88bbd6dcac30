use serde_json::Value;

/// Appends a value as JSON, through serde_json (writing to a `Vec` cannot fail).
macro_rules! json {
    ($out:expr, $value:expr) => {{
        let _ = serde_json::to_writer(&mut *$out, $value);
    }};
}

/// Writes one JSON object into a byte buffer, Kineto style (`"key": value`, entries separated by `, `).
///
/// Strings (keys and values) are escaped by serde_json; numbers are written by serde_json too, so the
/// output is valid JSON whatever the names hold. Call [`end`](Self::end) to close the object.
pub(crate) struct JsonObject<'a> {
    out: &'a mut Vec<u8>,
    empty: bool,
}

impl<'a> JsonObject<'a> {
    /// Opens an object at the end of `out`.
    pub(crate) fn begin(out: &'a mut Vec<u8>) -> Self {
        out.push(b'{');
        JsonObject { out, empty: true }
    }

    fn key(&mut self, key: &str) {
        if !self.empty {
            self.out.extend_from_slice(b", ");
        }
        self.empty = false;
        json!(self.out, key);
        self.out.extend_from_slice(b": ");
    }

    /// `"key": "value"`.
    pub(crate) fn str(&mut self, key: &str, value: &str) -> &mut Self {
        self.key(key);
        json!(self.out, value);
        self
    }

    /// `"key": 123`.
    pub(crate) fn uint(&mut self, key: &str, value: u64) -> &mut Self {
        self.key(key);
        json!(self.out, &value);
        self
    }

    /// `"key": -123`.
    pub(crate) fn int(&mut self, key: &str, value: i64) -> &mut Self {
        self.key(key);
        json!(self.out, &value);
        self
    }

    /// `"key": 1.5` (a non-finite value is written as `null`, as serde_json does).
    pub(crate) fn float(&mut self, key: &str, value: f64) -> &mut Self {
        self.key(key);
        json!(self.out, &value);
        self
    }

    /// `"key": 123` when `value` is `Some`.
    pub(crate) fn opt_uint(&mut self, key: &str, value: Option<u64>) -> &mut Self {
        if let Some(value) = value {
            self.uint(key, value);
        }
        self
    }

    /// `"key": -123` when `value` is `Some`.
    pub(crate) fn opt_int(&mut self, key: &str, value: Option<i64>) -> &mut Self {
        if let Some(value) = value {
            self.int(key, value);
        }
        self
    }

    /// `"key": [a, b, c]`.
    pub(crate) fn uints(&mut self, key: &str, values: &[u64]) -> &mut Self {
        self.key(key);
        self.out.push(b'[');
        for (i, value) in values.iter().enumerate() {
            if i > 0 {
                self.out.extend_from_slice(b", ");
            }
            json!(self.out, value);
        }
        self.out.push(b']');
        self
    }

    /// `"key": 12.345`: nanoseconds written as microseconds with exactly 3 decimals.
    pub(crate) fn micros(&mut self, key: &str, ns: i128) -> &mut Self {
        self.key(key);
        write_micros(self.out, ns);
        self
    }

    /// `"key": <any JSON value>`.
    pub(crate) fn value(&mut self, key: &str, value: &Value) -> &mut Self {
        self.key(key);
        json!(self.out, value);
        self
    }

    /// Opens a nested object under `key`; close it with `end` before writing to this one again.
    pub(crate) fn object(&mut self, key: &str) -> JsonObject<'_> {
        self.key(key);
        JsonObject::begin(self.out)
    }

    /// Closes the object.
    pub(crate) fn end(self) {
        self.out.push(b'}');
    }
}

/// `ns` nanoseconds as microseconds with 3 decimals, e.g. `-1.005` for -1005 ns; exact, no float rounding.
pub(crate) fn write_micros(out: &mut Vec<u8>, ns: i128) {
    use std::io::Write;
    let sign = if ns < 0 { "-" } else { "" };
    let abs = ns.unsigned_abs();
    let _ = write!(out, "{sign}{}.{:03}", abs / 1000, abs % 1000);
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(text(1_700_000_000_123_456_789), "1700000000123456.789");
    }

    #[test]
    fn strings_are_escaped_and_the_object_parses() {
        let mut out = Vec::new();
        let mut o = JsonObject::begin(&mut out);
        o.str("name", "a \"quoted\"\n\\ name\u{1}").uint("n", 7).float("bw", f64::NAN);
        let mut inner = o.object("args");
        inner.uints("grid", &[1, 2, 3]).int("neg", -4);
        inner.end();
        o.end();
        let parsed: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(parsed["name"], "a \"quoted\"\n\\ name\u{1}");
        assert_eq!(parsed["n"], 7);
        assert!(parsed["bw"].is_null());
        assert_eq!(parsed["args"]["grid"], serde_json::json!([1, 2, 3]));
        assert_eq!(parsed["args"]["neg"], -4);
        assert!(String::from_utf8(out).unwrap().starts_with("{\"name\": "));
    }
}
