use super::*;

fn read(input: &[u8]) -> Result<Vec<Entry>, BatchError> {
    from_reader(input, "the test input", Some(input.len() as u64))?.collect()
}

fn entries(input: &str) -> Vec<(usize, String, Option<String>)> {
    read(input.as_bytes())
        .unwrap()
        .into_iter()
        .map(|e| (e.index, e.text, e.problem.map(|p| p.to_string())))
        .collect()
}

fn texts(input: &str) -> Vec<String> {
    entries(input).into_iter().map(|e| e.1).collect()
}

#[test]
fn an_unterminated_string_ending_in_a_wide_character() {
    // Found by the fuzz test: serde_json's error column pointed inside `ö`.
    for input in ["\"a\"\n\"ünïcö\n\"b\"\n", "[\"a\", \"ünïcö", "{\"x\": [\"ö"] {
        let got = read(input.as_bytes());
        if input.starts_with('"') {
            let got = got.unwrap();
            assert_eq!(got.len(), 3, "{input:?}");
            assert_eq!(got[1].text, "\"ünïcö");
            let problem = got[1].problem.as_ref().unwrap().to_string();
            assert!(problem.contains("line 2, column 6"), "{problem}");
        } else {
            assert!(got.is_err(), "{input:?}");
        }
    }
}

#[test]
fn json_arrays() {
    let got = entries(" \n[\"a\" , \"b\\\"c\",\n{\"puzzle\":\"d\"}, 42 ]\n");
    assert_eq!(got.len(), 4);
    assert_eq!(got[0], (1, "a".into(), None));
    assert_eq!(got[1], (2, "b\"c".into(), None));
    assert_eq!(got[2], (3, "d".into(), None));
    assert_eq!(got[3].1, "42");
    assert_eq!(
        got[3].2.as_deref(),
        Some("array element 4 (line 3, column 17) is not a puzzle string (nor an object with a \"puzzle\" string)")
    );
    assert!(entries("[]").is_empty());
    assert!(entries("[ ]").is_empty());
    let reader = from_reader(&b"[\"a\", \"b\"]"[..], "x", None).unwrap();
    assert_eq!(reader.total(), Some(2));
    assert_eq!(reader.shape(), Shape::JsonArray);
}

#[test]
fn malformed_arrays_are_refused_whole_with_the_place() {
    let e = read(b"\n\n  [\"a\",\n \"b\"").unwrap_err();
    let message = e.to_string();
    assert!(matches!(e, BatchError::BadArray { .. }), "{message}");
    assert!(message.contains("not a valid JSON array"), "{message}");
    assert!(message.contains("(line 4, column 4)"), "{message}");
}

#[test]
fn undecodable_elements_get_an_entry_and_the_rest_are_read() {
    // A lone surrogate and a number out of range are well-formed JSON that
    // cannot be decoded: an entry each, with the place in the whole input.
    let good = "3:_a_aa_aa,s1m3a6m6";
    let input =
        format!("[\"{good}\",\"\\udc00\",\n  1e400, {{\"puzzle\": \"\\ud800\"}}, \"{good}\"]");
    let got = entries(&input);
    assert_eq!(got.len(), 5);
    assert_eq!(got[0], (1, good.to_string(), None));
    assert_eq!(got[1].1, "\"\\udc00\"");
    let problem = got[1].2.as_deref().unwrap();
    assert!(
        problem.starts_with(
            "array element 2 (line 1, column 24) is not valid JSON: lone leading surrogate"
        ),
        "{problem}"
    );
    assert!(problem.ends_with("(line 1, column 30)"), "{problem}");
    let problem = got[2].2.as_deref().unwrap();
    assert!(
        problem.starts_with(
            "array element 3 (line 2, column 3) is not valid JSON: number out of range"
        ),
        "{problem}"
    );
    assert!(got[3].2.as_deref().unwrap().contains("element 4"));
    assert_eq!(got[4], (5, good.to_string(), None));
}

#[test]
fn category_objects() {
    assert_eq!(
        texts("{\n \"Four\": [\"b\", \"a\"],\n \"Easy\": [\"c\"]\n}\n"),
        ["b", "a", "c"]
    );
    let e = read(b"{\n \"Four\": 3\n}").unwrap_err();
    assert!(
        e.to_string().contains("JSON object of puzzle arrays"),
        "{e}"
    );
    assert!(e.to_string().contains("line 2"), "{e}");
    let got = entries("{\n \"Four\": [\"b\", 7]\n}");
    assert_eq!(
        got[1].2.as_deref(),
        Some("element 2 of category \"Four\" (line 2, column 16) is not a puzzle string (nor an object with a \"puzzle\" string)")
    );
}

#[test]
fn one_line_category_objects() {
    // What `jq -c` writes: the whole object on one line, keys in their order.
    let input = "{\"Hard\":[\"b\",\"a\"],\"Easy\":[\"c\"],\"None\":[]}\n";
    let reader = from_reader(input.as_bytes(), "x", None).unwrap();
    assert_eq!(reader.shape(), Shape::JsonLines);
    let got: Vec<Entry> = reader.map(Result::unwrap).collect();
    let got_texts: Vec<&str> = got.iter().map(|e| e.text.as_str()).collect();
    assert_eq!(got_texts, ["b", "a", "c"]);
    assert_eq!(got.iter().map(|e| e.index).collect::<Vec<_>>(), [1, 2, 3]);
    // Several of them, and ordinary lines between.
    assert_eq!(
        texts("{\"A\":[\"a\"]}\n\"b\"\n{\"B\":[\"c\",\"d\"]}\n{\"puzzle\":\"e\"}\n"),
        ["a", "b", "c", "d", "e"]
    );
    // An element that cannot be decoded is one entry in error, not the line.
    let got = entries("{\"A\":[\"a\", 1e400, \"b\"]}\n");
    assert_eq!(got.len(), 3);
    assert!(got[1].2.as_deref().unwrap().contains("number out of range"));
    assert_eq!(got[2].1, "b");
    let got = entries("{\"A\":[\"a\", 5]}\n");
    assert_eq!(
        got[1].2.as_deref(),
        Some("element 2 of category \"A\" (line 1, column 12) is not a puzzle string (nor an object with a \"puzzle\" string)")
    );
}

#[test]
fn ndjson_and_lines() {
    let got = entries("\"a\"\n\n{\"puzzle\": \"b\", \"x\": 1}\n  {oops\n{\"id\": 7}\n");
    assert_eq!(got.len(), 4);
    assert_eq!(got[0], (1, "a".into(), None));
    assert_eq!(got[1], (2, "b".into(), None));
    assert_eq!(got[2].1, "{oops");
    assert_eq!(
        got[2].2.as_deref(),
        Some("line 4 is not valid JSON: key must be a string (line 4, column 4)")
    );
    assert_eq!(
        got[3].2.as_deref(),
        Some("line 5 is an object without a \"puzzle\" string")
    );

    let got = entries("\u{feff}4:abc\r\n\n  5:def  \n");
    assert_eq!(
        got,
        vec![(1, "4:abc".into(), None), (2, "5:def".into(), None)]
    );
    assert!(entries("").is_empty());
    assert!(entries(" \n\t\n").is_empty());
    // Lines count from the start, blank lines before the first one included.
    let got = entries("\n\n\"a\"\n{x\n");
    assert!(got[1].2.as_deref().unwrap().starts_with("line 4 "));
}

#[test]
fn bad_utf8() {
    let got = read(b"4:abc\n4:\xFFx\n5:def\n").unwrap();
    assert_eq!(got.len(), 3);
    assert_eq!(
        got[1].problem,
        Some(EntryError::NotUtf8 {
            item: Item::Line(2)
        })
    );
    assert_eq!(got[2].text, "5:def");
    let e = read(b"[\"a\",\n\"\xFF\"]").unwrap_err();
    assert_eq!(
        e.to_string(),
        "the test input is not valid UTF-8 (line 2, column 2, byte offset 7)"
    );
}

fn utf16(text: &str, big: bool) -> Vec<u8> {
    let mut bytes = if big {
        vec![0xFE, 0xFF]
    } else {
        vec![0xFF, 0xFE]
    };
    for unit in text.encode_utf16() {
        bytes.extend(if big {
            unit.to_be_bytes()
        } else {
            unit.to_le_bytes()
        });
    }
    bytes
}

#[test]
fn utf16_is_decoded() {
    let text = "3:_a_aa_aa,s1m3a6m6\n4:abc\n";
    for big in [false, true] {
        let got: Vec<String> = read(&utf16(text, big))
            .unwrap()
            .into_iter()
            .map(|e| e.text)
            .collect();
        assert_eq!(got, ["3:_a_aa_aa,s1m3a6m6", "4:abc"]);
        assert_eq!(decode_text(utf16(text, big), "x").unwrap(), text);
    }
    let mut no_bom = utf16(text, false);
    no_bom.drain(..2);
    let e = read(&no_bom).unwrap_err();
    assert!(matches!(e, BatchError::Utf16WithoutBom { .. }), "{e}");
    let mut broken = utf16("ab", false);
    broken.extend([0x00, 0xDC]);
    let e = read(&broken).unwrap_err();
    assert!(
        e.to_string().contains("not valid UTF-16 (byte offset 6)"),
        "{e}"
    );
}

#[test]
fn decode_text_drops_the_bom_and_says_where_utf8_breaks() {
    assert_eq!(
        decode_text(b"\xEF\xBB\xBF4:ab".to_vec(), "x").unwrap(),
        "4:ab"
    );
    let e = decode_text(b"4:\nab\xC3".to_vec(), "file p.txt").unwrap_err();
    assert_eq!(
        e.to_string(),
        "file p.txt is not valid UTF-8 (line 2, column 3, byte offset 5)"
    );
}

#[test]
fn bytes_add_up_to_the_input() {
    for input in [
        "\u{feff} \n4:abc\r\n\n  5:def  \n",
        "\"a\"\n{\"A\":[\"b\",\"c\"]}\n\n",
        "[\"a\", \"b\"]\n",
        "{\n\"A\": [\"a\", \"b\"]\n}",
    ] {
        let total: u64 = read(input.as_bytes())
            .unwrap()
            .iter()
            .map(|e| e.bytes)
            .sum();
        assert!(total <= input.len() as u64, "{input:?}");
        assert!(total + 3 >= input.len() as u64, "{input:?}: {total}");
    }
}

#[test]
fn files_that_cannot_be_read() {
    let dir = std::env::temp_dir();
    assert!(matches!(
        open(dir.join("no-such-kenken-batch.json")).err(),
        Some(BatchError::NotFound { .. })
    ));
    let e = open(&dir).err().unwrap();
    assert!(matches!(e, BatchError::IsADirectory { .. }), "{e}");
}

#[test]
fn entry_puzzle() {
    let got = read(b"4:abc\n").unwrap();
    assert_eq!(got[0].puzzle(), Some("4:abc"));
    let got = read(b"[1]").unwrap();
    assert_eq!(got[0].puzzle(), None);
}

#[test]
fn a_library_callers_values_are_read_as_array_elements() {
    use serde_json::json;
    let four = "4:_a_5a_bac_a__,d2m12a5m8s2d2s1";
    let e = entry_of_value(3, json!(four));
    assert_eq!((e.index, e.text.as_str(), e.hide_ops), (3, four, false));
    assert!(e.problem.is_none());
    let e = entry_of_value(1, json!({"puzzle": four, "hide_ops": true, "id": 7}));
    assert_eq!((e.text.as_str(), e.hide_ops), (four, true));
    for (value, problem) in [
        (
            json!({"puzzle": four, "hide_ops": "yes"}),
            "item 2 has a \"hide_ops\" that is not true or false",
        ),
        (
            json!({"id": 7}),
            "item 2 is an object without a \"puzzle\" string",
        ),
        (
            json!(12),
            "item 2 is not a puzzle string (nor an object with a \"puzzle\" string)",
        ),
    ] {
        let e = entry_of_value(2, value);
        assert_eq!(e.problem.unwrap().to_string(), problem);
        assert!(!e.hide_ops);
    }
}
