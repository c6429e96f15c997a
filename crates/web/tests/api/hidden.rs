//! Hidden operations: `hide_ops` on every request that carries a puzzle, the
//! server's own `hide_ops`, a puzzle and its hidden version cached apart, the
//! answers for a hidden puzzle (the text format, pictures without signs, steps,
//! proofs, checks and hints), and a bad `hide_ops` refused in words.

use super::*;
use kenken_render::Picture;

/// Sample 3, unique with its operations shown and hidden alike.
const STAYS_UNIQUE: &str = "4:a_a_aab_a__a_a__,s2s1d2a5m12a5m12";
/// [`STAYS_UNIQUE`] with every operation hidden, in the text format.
const STAYS_UNIQUE_AS_TEXT: &str =
    "# 4\n? 2 A1 A2\n? 1 A3 B3\n? 2 A4 B4\n? 5 B1 B2\n? 12 C1 C2 D1\n? 5 C3 C4\n? 12 D2 D3 D4";
/// [`FOUR`]'s solution.
const FOUR_SOLUTION: [u8; 16] = [4, 3, 1, 2, 2, 1, 4, 3, 3, 4, 2, 1, 1, 2, 3, 4];
/// Another solution of [`FOUR`] with its operations hidden.
const FOUR_HIDDEN_OTHER: [u8; 16] = [1, 2, 3, 4, 3, 4, 2, 1, 4, 3, 1, 2, 2, 1, 4, 3];

/// A position with `digits` in the first cells and the rest blank.
fn position(size: usize, digits: &[u8]) -> Vec<Value> {
    let mut cells = blank(size);
    for (cell, &d) in cells.iter_mut().zip(digits) {
        *cell = json!(d);
    }
    cells
}

/// `body` with `"hide_ops": hide` added.
fn hiding(mut body: Value, hide: bool) -> Value {
    body["hide_ops"] = json!(hide);
    body
}

fn ok(addr: SocketAddr, path: &str, body: Value) -> Value {
    let r = post(addr, path, body.clone());
    assert_eq!(r.status, 200, "{path} {body}: {}", r.body);
    r.json()
}

/// The picture the render library draws of `text` with every operation hidden.
fn hidden_picture(text: &str) -> String {
    let puzzle = kenken_formats::read_any(text, None)
        .unwrap()
        .puzzle
        .with_hidden_ops();
    Picture::new(&puzzle).svg()
}

#[test]
fn hide_ops_is_off_unless_asked_and_hides_every_operation() {
    let addr = server();
    let unasked = ok(addr, "/api/load", json!({"puzzle": FOUR}));
    let shown = ok(addr, "/api/load", hiding(json!({"puzzle": FOUR}), false));
    assert_eq!(unasked, shown);
    assert_eq!(shown["hide_ops"], false);
    assert_eq!(shown["verdict"], "unique");
    assert_eq!(shown["status"], "solved");
    assert_eq!(shown["tatham"], FOUR);
    assert_eq!(
        shown["text"],
        "# 4\n/ 2 A1 B1\n* 12 A2 A3 B3\n+ 5 A4 B4\n* 8 B2 C2 D2\n- 2 C1 D1\n/ 2 C3 C4\n- 1 D3 D4"
    );

    let hidden = ok(addr, "/api/load", hiding(json!({"puzzle": FOUR}), true));
    assert_eq!(hidden["hide_ops"], true);
    // Unique with its operations shown, ambiguous with them hidden.
    assert_eq!(hidden["verdict"], "ambiguous");
    assert_eq!(hidden["status"], "ambiguous");
    // No Tatham ID shows a hidden operation; the text format does.
    assert_eq!(hidden["tatham"], Value::Null);
    assert_eq!(
        hidden["text"],
        "# 4\n? 2 A1 B1\n? 12 A2 A3 B3\n? 5 A4 B4\n? 8 B2 C2 D2\n? 2 C1 D1\n? 2 C3 C4\n? 1 D3 D4"
    );
    assert_eq!(hidden["format"], "tatham");
    // The board draws the clues without their signs.
    assert_eq!(hidden["svg"], hidden_picture(FOUR));
    assert_ne!(hidden["svg"], shown["svg"]);
    assert_ne!(hidden["steps"], shown["steps"]);
}

#[test]
fn a_hidden_puzzle_can_stay_unique_and_reads_back_from_its_text() {
    let addr = server();
    let hidden = ok(
        addr,
        "/api/load",
        hiding(json!({"puzzle": STAYS_UNIQUE}), true),
    );
    assert_eq!(hidden["verdict"], "unique");
    assert_eq!(hidden["status"], "solved");
    assert_eq!(hidden["text"], STAYS_UNIQUE_AS_TEXT);
    // Its text, pasted back, is the same puzzle: read with `?` cages, no
    // hide_ops needed.
    let pasted = ok(addr, "/api/load", json!({"puzzle": STAYS_UNIQUE_AS_TEXT}));
    assert_eq!(pasted["format"], "text");
    assert_eq!(pasted["hide_ops"], false);
    assert_eq!(pasted["tatham"], Value::Null);
    assert_eq!(pasted["text"], STAYS_UNIQUE_AS_TEXT);
    for field in ["verdict", "status", "max", "total", "steps", "svg"] {
        assert_eq!(pasted[field], hidden[field], "{field}");
    }
    // Hiding what is hidden already changes nothing but the flag.
    let again = ok(
        addr,
        "/api/load",
        hiding(json!({"puzzle": STAYS_UNIQUE_AS_TEXT}), true),
    );
    assert_eq!(again["hide_ops"], true);
    assert_eq!(again["steps"], pasted["steps"]);
}

#[test]
fn a_puzzle_and_its_hidden_version_are_cached_apart() {
    // Fresh servers, so that whichever is asked first is what the cache holds.
    for hidden_first in [false, true] {
        let addr = start(Config::default());
        let order = if hidden_first {
            [true, false]
        } else {
            [false, true]
        };
        for hide in order {
            let load = ok(addr, "/api/load", hiding(json!({"puzzle": FOUR}), hide));
            let expected = if hide { "ambiguous" } else { "unique" };
            assert_eq!(load["verdict"], expected, "hidden first: {hidden_first}");
            assert_eq!(load["hide_ops"], hide);
            let steps = load["steps"].as_array().unwrap().len();
            let last = ok(
                addr,
                "/api/step",
                hiding(json!({"puzzle": FOUR, "n": steps}), hide),
            );
            assert_eq!(last["count"], steps);
        }
        // The same position checked against each: the second solution of the
        // hidden puzzle is wrong in the puzzle as written.
        let other = position(4, &FOUR_HIDDEN_OTHER[..4]);
        let check = |hide| {
            ok(
                addr,
                "/api/check",
                hiding(json!({"puzzle": FOUR, "cells": other}), hide),
            )
        };
        assert_eq!(check(true)["status"], "consistent-with-some");
        assert_eq!(check(false)["status"], "conflicts");
        assert_eq!(check(true)["status"], "consistent-with-some");
    }
}

#[test]
fn every_route_works_on_a_hidden_puzzle() {
    let addr = server();
    // SIX stays unique with its operations hidden; its log changes.
    let load = ok(addr, "/api/load", hiding(json!({"puzzle": SIX}), true));
    assert_eq!(load["verdict"], "unique");
    assert_eq!(load["status"], "solved");
    assert_eq!(load["hardest"], "Cage comparison");
    assert!(load["steps"][2]["text"]
        .as_str()
        .unwrap()
        .starts_with("Cage comparison: cages E1, A1 interact"));

    // Step 3, a cage comparison: explained with hidden cages, with its proofs.
    let step = ok(
        addr,
        "/api/step",
        hiding(json!({"puzzle": SIX, "n": 3}), true),
    );
    let report = &step["step"];
    assert!(
        report["explanation"]
            .as_str()
            .unwrap()
            .starts_with("Cage E1 (20, operation hidden) and cage A1 (2, operation hidden)"),
        "{}",
        report["explanation"]
    );
    assert_eq!(report["combinations"][0]["cage"], "A1");
    assert_eq!(
        report["combinations"][0]["removed"],
        json!([[2, 1], [4, 2]])
    );
    let proofs = report["proof"].as_array().unwrap();
    assert_eq!(proofs.len(), 2);
    for (k, proof) in proofs.iter().enumerate() {
        let answer = ok(
            addr,
            "/api/proof",
            hiding(json!({"puzzle": SIX, "n": 3, "k": k + 1}), true),
        );
        assert_eq!(answer["count"], 2);
        assert_eq!(answer["text"], proof["text"]);
        assert!(answer["svg"].as_str().unwrap().starts_with("<svg"));
    }
    // The same step of the puzzle as written is another one.
    let written = ok(addr, "/api/step", json!({"puzzle": SIX, "n": 3}));
    assert_ne!(written["step"], step["step"]);

    // The board, without signs.
    let board = ok(
        addr,
        "/api/board",
        hiding(json!({"puzzle": SIX, "cells": blank(6)}), true),
    );
    assert_eq!(board["svg"], hidden_picture(SIX));

    // Check and hints: the same solution, so the same wrong digit.
    let check = ok(
        addr,
        "/api/check",
        hiding(json!({"puzzle": SIX, "cells": position(6, &[5])}), true),
    );
    assert_eq!(check["message"], "A1: the 5 entered there is wrong.");
    let hint = ok(
        addr,
        "/api/hint",
        hiding(
            json!({"puzzle": SIX, "cells": blank(6), "level": "full"}),
            true,
        ),
    );
    assert_eq!(hint["status"], "step");
    assert_eq!(hint["step"]["text"], load["steps"][0]["text"]);
    let nudge = ok(
        addr,
        "/api/hint",
        hiding(
            json!({"puzzle": FOUR, "cells": blank(4), "level": "nudge"}),
            true,
        ),
    );
    assert_eq!(
        nudge["nudge"],
        "Look at cage B2 (8, operation hidden): which digits must it put in one line?"
    );
    // Either solution of the hidden FOUR is solved.
    for solution in [FOUR_SOLUTION, FOUR_HIDDEN_OTHER] {
        let hint = ok(
            addr,
            "/api/hint",
            hiding(
                json!({"puzzle": FOUR, "cells": position(4, &solution), "level": "nudge"}),
                true,
            ),
        );
        assert_eq!(hint["status"], "solved", "{solution:?}");
    }

    // K6C cannot show a hidden operation: 422, with the position as a grid.
    let export = post(
        addr,
        "/api/export",
        hiding(json!({"puzzle": SIX, "cells": position(6, &[4])}), true),
    );
    assert_eq!(export.status, 422);
    assert!(
        export
            .error()
            .contains("cannot show a cage whose operation is hidden"),
        "{}",
        export.error()
    );
    assert!(export.json()["grid"]
        .as_str()
        .unwrap()
        .starts_with("4 . . . . ."));
    let export = ok(
        addr,
        "/api/export",
        hiding(json!({"puzzle": SIX, "cells": position(6, &[4])}), false),
    );
    assert!(export["text"].as_str().unwrap().starts_with("K6C"));
}

#[test]
fn a_bad_hide_ops_is_refused_in_words() {
    let addr = server();
    let bodies = [
        ("/api/load", json!({"puzzle": SIX})),
        ("/api/step", json!({"puzzle": SIX, "n": 1})),
        ("/api/proof", json!({"puzzle": SIX, "n": 7, "k": 1})),
        ("/api/board", json!({"puzzle": SIX, "cells": blank(6)})),
        ("/api/check", json!({"puzzle": SIX, "cells": blank(6)})),
        (
            "/api/hint",
            json!({"puzzle": SIX, "cells": blank(6), "level": "nudge"}),
        ),
        ("/api/export", json!({"puzzle": SIX, "cells": blank(6)})),
    ];
    for (path, body) in &bodies {
        for (bad, shown) in [
            (json!("yes"), "\"yes\""),
            (json!("true"), "\"true\""),
            (json!(1), "1"),
            (json!(0), "0"),
            (json!(null), "null"),
            (json!([true]), "[true]"),
            (json!({}), "{}"),
        ] {
            let mut body = body.clone();
            body["hide_ops"] = bad;
            let r = post(addr, path, body);
            assert_eq!(r.status, 422, "{path} {shown}");
            assert_eq!(
                r.error(),
                format!(
                    "\"hide_ops\" must be true or false (true hides every cage's operation), not {shown}"
                ),
                "{path}"
            );
        }
        // Both booleans are taken.
        for hide in [false, true] {
            let r = post(addr, path, hiding(body.clone(), hide));
            let expected = if *path == "/api/export" && hide {
                422
            } else {
                200
            };
            assert_eq!(r.status, expected, "{path} {hide}: {}", r.body);
        }
    }
    // A field of another name is unknown, and the message names hide_ops.
    let r = post(addr, "/api/load", json!({"puzzle": SIX, "hide": true}));
    assert_eq!(r.status, 422);
    assert_eq!(
        r.error(),
        "unknown field \"hide\": /api/load takes \"puzzle\" (and, optionally, \"hide_ops\")"
    );
    // hide_ops alone is not a puzzle.
    let r = post(addr, "/api/load", json!({"hide_ops": true}));
    assert_eq!(r.status, 422);
    assert_eq!(
        r.error(),
        "the field \"puzzle\" is missing: /api/load takes \"puzzle\" (and, optionally, \"hide_ops\")"
    );
}

#[test]
fn a_server_that_hides_ops_hides_them_for_every_request() {
    let addr = start(Config {
        hide_ops: true,
        ..Config::default()
    });
    for body in [
        json!({"puzzle": FOUR}),
        hiding(json!({"puzzle": FOUR}), false),
        hiding(json!({"puzzle": FOUR}), true),
    ] {
        let load = ok(addr, "/api/load", body.clone());
        assert_eq!(load["hide_ops"], true, "{body}");
        assert_eq!(load["verdict"], "ambiguous", "{body}");
        assert_eq!(load["tatham"], Value::Null);
    }
    let board = ok(
        addr,
        "/api/board",
        hiding(json!({"puzzle": FOUR, "cells": blank(4)}), false),
    );
    assert_eq!(board["svg"], hidden_picture(FOUR));
    // A solution of the hidden puzzle only (the puzzle as written has another).
    let check = ok(
        addr,
        "/api/check",
        json!({"puzzle": FOUR, "cells": position(4, &FOUR_HIDDEN_OTHER)}),
    );
    assert_eq!(check["status"], "consistent-with-some");
    assert_eq!(check["conflicts"], json!([]));
    let export = post(
        addr,
        "/api/export",
        json!({"puzzle": SIX, "cells": blank(6)}),
    );
    assert_eq!(export.status, 422);
    // A bad hide_ops is refused all the same.
    let r = post(addr, "/api/load", json!({"puzzle": FOUR, "hide_ops": "no"}));
    assert_eq!(r.status, 422);
}

#[test]
fn a_file_entry_can_ask_for_hidden_operations() {
    let file = std::env::temp_dir().join(format!("kenken-web-hidden-{}.json", std::process::id()));
    std::fs::write(
        &file,
        json!([FOUR, {"puzzle": FOUR, "hide_ops": true}, {"puzzle": SIX}]).to_string(),
    )
    .unwrap();
    let library = Library::open(&file);
    std::fs::remove_file(&file).unwrap();
    let library = library.expect("the file is read");
    let flags: Vec<bool> = library.puzzles.iter().map(|p| p.hide_ops).collect();
    assert_eq!(flags, [false, true, false]);
    let addr = start(Config {
        library: Some(library),
        ..Config::default()
    });
    let list = get(addr, "/api/puzzles").json();
    assert_eq!(
        list["items"],
        json!([
            {"number": 1, "puzzle": FOUR, "hide_ops": false},
            {"number": 2, "puzzle": FOUR, "hide_ops": true},
            {"number": 3, "puzzle": SIX, "hide_ops": false},
        ])
    );
    // The sample file asks for none.
    let sample = get(server(), "/api/puzzles?limit=1000").json();
    assert!(sample["items"]
        .as_array()
        .unwrap()
        .iter()
        .all(|item| item["hide_ops"] == false));
}
