//! The WebAssembly module's session, natively: what JavaScript calls.

use jungletb_wasm::session::{Reply, Session};

#[test]
fn a_position_with_no_table_is_a_missing_table_not_a_panic() {
    let s = Session::open(r#"{"ruleset":"standard"}"#).unwrap();
    let r = s.probe("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L w");
    assert!(
        matches!(&r, Reply::Failed(t) if t.contains("missing_table")),
        "{r:?}"
    );
}
