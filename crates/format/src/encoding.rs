//! How values are stored: one unsigned integer per index slot.
//!
//! | raw | meaning |
//! |---|---|
//! | 0 | unused slot (no position is stored here) |
//! | 1 | draw |
//! | n + 2 | win in n plies (n odd) or loss in n plies (n even) |
//!
//! Tables use 8-bit values while every distance is ≤ 253 and 16-bit values
//! otherwise; distances beyond 65,533 plies cannot be stored and make the
//! writer fail rather than truncate.

use jungletb_rules::Value;

/// Raw value of an unused index slot.
pub const RAW_UNUSED: u16 = 0;
/// Raw value of a draw.
pub const RAW_DRAW: u16 = 1;
/// The longest distance a 16-bit table can store.
pub const MAX_PLIES: u16 = u16::MAX - 2;

/// The raw value of `v`, `None` if its distance exceeds [`MAX_PLIES`].
#[inline]
pub fn encode(v: Value) -> Option<u16> {
    match v {
        Value::Draw => Some(RAW_DRAW),
        Value::Win(n) | Value::Loss(n) => (n <= MAX_PLIES).then(|| n + 2),
    }
}

/// The value stored as `raw`, `None` for an unused slot.
#[inline]
pub fn decode(raw: u16) -> Option<Value> {
    match raw {
        RAW_UNUSED => None,
        RAW_DRAW => Some(Value::Draw),
        r => {
            let n = r - 2;
            Some(if n % 2 == 1 {
                Value::Win(n)
            } else {
                Value::Loss(n)
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for v in [
            Value::Draw,
            Value::Loss(0),
            Value::Win(1),
            Value::Loss(254),
            Value::Win(MAX_PLIES),
        ] {
            assert_eq!(decode(encode(v).unwrap()), Some(v));
        }
        assert_eq!(encode(Value::Loss(MAX_PLIES + 1)), None);
        assert_eq!(decode(RAW_UNUSED), None);
    }
}
