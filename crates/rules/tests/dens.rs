//! A piece on a den is told apart by whose den it is: its own (never
//! allowed), the enemy's (a finished game, once and by the side that moved
//! last), or both sides on each other's (impossible).

use jungletb_rules::{Position, PositionError, Ruleset};

fn reachable(text: &str) -> Result<(), PositionError> {
    let pos: Position = text.parse().unwrap();
    pos.validate_reachable(&Ruleset::standard())
}

#[test]
fn a_den_error_says_whose_den_it_is() {
    // White's Elephant on Black's den with Black to move: a finished game.
    assert_eq!(reachable("3E3/7/7/7/7/7/7/7/6r b"), Ok(()));
    // On its own den: never.
    let e = reachable("7/7/7/7/7/7/7/7/3E2r w").unwrap_err();
    assert!(
        matches!(e, PositionError::PieceOnDen { own: true, .. }),
        "{e}"
    );
    assert!(e.to_string().contains("may not enter its own den"), "{e}");
    // Both sides on the enemy's den: the game ended at the first entry.
    for side in ["w", "b"] {
        let e = reachable(&format!("3E3/7/7/7/7/7/7/7/3e3 {side}")).unwrap_err();
        assert!(
            matches!(e, PositionError::BothDensEntered { .. }),
            "{side}: {e}"
        );
        let text = e.to_string();
        assert!(
            text.contains("White Elephant on d9") && text.contains("Black Elephant on d1"),
            "{text}"
        );
    }
    // A table probe refuses an entered den as a finished game, not as an
    // illegal square.
    let pos: Position = "3E3/7/7/7/7/7/7/7/6r b".parse().unwrap();
    let e = pos.validate(&Ruleset::standard()).unwrap_err();
    assert!(
        matches!(e, PositionError::PieceOnDen { own: false, .. }),
        "{e}"
    );
    assert!(
        e.to_string()
            .contains("ended when it entered the enemy den"),
        "{e}"
    );
}
