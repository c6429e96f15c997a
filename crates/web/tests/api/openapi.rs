//! The OpenAPI document keeps in step with the server: the same routes with the
//! same methods, each documented example answered with its documented status,
//! and every status the server gives documented.

use super::*;
use std::collections::BTreeMap;

const METHODS: [&str; 8] = [
    "get", "head", "post", "put", "delete", "patch", "options", "trace",
];

fn document() -> Value {
    serde_json::from_str(kenken_web::OPENAPI).expect("the document is JSON")
}

/// Every path of the document with its methods, upper case and sorted.
fn documented(doc: &Value) -> BTreeMap<String, Vec<String>> {
    doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(path, item)| {
            let mut methods: Vec<String> = METHODS
                .iter()
                .filter(|m| item.get(**m).is_some())
                .map(|m| m.to_uppercase())
                .collect();
            methods.sort();
            (path.clone(), methods)
        })
        .collect()
}

#[test]
fn the_document_lists_every_route_with_its_methods() {
    let doc = document();
    assert_eq!(doc["openapi"], "3.0.3");
    let served: BTreeMap<String, Vec<String>> = kenken_web::routes()
        .map(|(path, methods)| {
            let mut methods: Vec<String> = methods.iter().map(|m| m.to_string()).collect();
            methods.sort();
            (path.to_string(), methods)
        })
        .collect();
    assert_eq!(documented(&doc), served);
}

#[test]
fn the_server_takes_the_documented_methods_and_no_others() {
    let addr = server();
    for (path, methods) in documented(&document()) {
        for method in METHODS.map(str::to_uppercase) {
            let body = if method == "POST" { "{}" } else { "" };
            let r = send(
                addr,
                &format!(
                    "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    addr.port(),
                    body.len()
                ),
                body.as_bytes(),
            );
            if methods.contains(&method) {
                assert!(
                    r.status == 200 || r.status == 422,
                    "{method} {path}: {}",
                    r.status
                );
            } else {
                assert_eq!(r.status, 405, "{method} {path}");
                let allow = r
                    .head
                    .lines()
                    .find_map(|l| l.strip_prefix("Allow: "))
                    .expect("an Allow header");
                let mut allowed: Vec<&str> = allow.trim().split(", ").collect();
                allowed.sort();
                assert_eq!(allowed, methods, "{path}");
            }
        }
    }
    assert_eq!(get(addr, "/api/nothing").status, 404);
}

#[test]
fn the_document_is_served() {
    let r = get(server(), "/api/openapi.json");
    assert_eq!(r.status, 200);
    assert!(r.head.contains("Content-Type: application/json"));
    assert_eq!(r.json(), document());
}

/// Follows a `$ref` within the document.
fn resolve<'a>(doc: &'a Value, value: &'a Value) -> &'a Value {
    match value.get("$ref").and_then(Value::as_str) {
        Some(reference) => {
            let pointer = reference.strip_prefix('#').unwrap();
            resolve(doc, doc.pointer(pointer).expect("the reference resolves"))
        }
        None => value,
    }
}

#[test]
fn each_documented_example_gets_its_documented_status() {
    let doc = document();
    let addr = server();
    let mut tried = 0;
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, operation) in item.as_object().unwrap() {
            let responses = operation["responses"].as_object().unwrap();
            if let Some(examples) =
                operation.pointer("/requestBody/content/application~1json/examples")
            {
                for (name, example) in examples.as_object().unwrap() {
                    let status = example["x-status"].as_u64().expect("x-status") as u16;
                    assert!(
                        responses.contains_key(&status.to_string()),
                        "{path} {name}: {status} is not documented"
                    );
                    let r = post(addr, path, example["value"].clone());
                    assert_eq!(r.status, status, "{method} {path} {name}: {}", r.body);
                    tried += 1;
                }
            }
            if method == "get" {
                let r = get(addr, path);
                assert_eq!(r.status, 200, "{path}");
                let query: Vec<String> = operation["parameters"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .map(|p| format!("{}={}", p["name"].as_str().unwrap(), p["example"]))
                    .collect();
                if !query.is_empty() {
                    let r = get(addr, &format!("{path}?{}", query.join("&")));
                    assert_eq!(r.status, 200, "{path}?{}", query.join("&"));
                }
                tried += 1;
            }
        }
    }
    assert!(tried >= 21, "{tried}");
}

#[test]
fn the_statuses_the_server_gives_are_documented() {
    let doc = document();
    let addr = server();
    let documented = |path: &str, method: &str, status: u16| {
        let responses = doc["paths"][path][method]["responses"]
            .as_object()
            .unwrap_or_else(|| panic!("{method} {path}"));
        let response = responses
            .get(&status.to_string())
            .unwrap_or_else(|| panic!("{method} {path} {status} is not documented"));
        resolve(&doc, response).clone()
    };
    let bad_host = |path: &str, method: &str| {
        send(
            addr,
            &format!("{method} {path} HTTP/1.1\r\nHost: evil.com\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
            b"",
        )
        .status
    };
    for (path, methods) in kenken_web::routes() {
        for method in methods {
            let lower = method.to_lowercase();
            assert_eq!(bad_host(path, method), 403);
            documented(path, &lower, 403);
            documented(path, &lower, 503);
            documented(path, &lower, 500);
            if method == "POST" {
                for (status, r) in [
                    (400, post_raw(addr, path, "application/json", b"{")),
                    (415, post_raw(addr, path, "text/plain", b"{}")),
                    (422, post(addr, path, json!({}))),
                    (
                        413,
                        post_raw(addr, path, "application/json", &[b' '; 70_000]),
                    ),
                ] {
                    assert_eq!(r.status, status, "{path}");
                    let response = documented(path, "post", status);
                    assert!(response.pointer("/content/application~1json").is_some());
                }
                documented(path, "post", 408);
            }
        }
    }
    assert_eq!(get(addr, "/api/puzzles?limit=x").status, 422);
    documented("/api/puzzles", "get", 422);
    documented("/api/puzzles", "get", 404);
}

/// Whether `value` fits `schema`, for the parts of JSON Schema the document
/// uses; the first misfit found, by its place in the value, otherwise.
fn misfit(doc: &Value, schema: &Value, value: &Value, at: &str) -> Option<String> {
    let schema = resolve(doc, schema);
    if let Some(options) = schema.get("oneOf").and_then(Value::as_array) {
        let fits = options
            .iter()
            .filter(|o| misfit(doc, o, value, at).is_none())
            .count();
        return (fits != 1).then(|| format!("{at}: {value} fits {fits} of oneOf"));
    }
    if value.is_null() {
        return (schema["nullable"] != true).then(|| format!("{at}: null"));
    }
    let kind = schema.get("type").and_then(Value::as_str);
    let fits_kind = match kind {
        None => true,
        Some("object") => value.is_object(),
        Some("array") => value.is_array(),
        Some("string") => value.is_string(),
        Some("integer") => value.is_i64() || value.is_u64(),
        Some("number") => value.is_number(),
        Some("boolean") => value.is_boolean(),
        Some(other) => panic!("{at}: type {other}"),
    };
    if !fits_kind {
        return Some(format!("{at}: {value} is not of type {kind:?}"));
    }
    if let Some(allowed) = schema.get("enum").and_then(Value::as_array) {
        if !allowed.contains(value) {
            return Some(format!("{at}: {value} is not one of {allowed:?}"));
        }
    }
    if let Some(n) = value.as_f64() {
        let below = schema
            .get("minimum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n < m);
        let above = schema
            .get("maximum")
            .and_then(Value::as_f64)
            .is_some_and(|m| n > m);
        if below || above {
            return Some(format!("{at}: {n} is out of range"));
        }
    }
    if let Some(items) = value.as_array() {
        if let Some(min) = schema.get("minItems").and_then(Value::as_u64) {
            if (items.len() as u64) < min {
                return Some(format!("{at}: fewer than {min} items"));
            }
        }
        if let Some(each) = schema.get("items") {
            for (i, item) in items.iter().enumerate() {
                if let Some(why) = misfit(doc, each, item, &format!("{at}[{i}]")) {
                    return Some(why);
                }
            }
        }
    }
    if let Some(fields) = value.as_object() {
        let properties = schema.get("properties").and_then(Value::as_object);
        for required in schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if !fields.contains_key(required.as_str().unwrap()) {
                return Some(format!("{at}: {required} is missing"));
            }
        }
        for (key, field) in fields {
            match properties.and_then(|p| p.get(key)) {
                Some(property) => {
                    if let Some(why) = misfit(doc, property, field, &format!("{at}.{key}")) {
                        return Some(why);
                    }
                }
                None if schema["additionalProperties"] == false => {
                    return Some(format!("{at}: {key} is not documented"))
                }
                None => {}
            }
        }
    }
    None
}

#[test]
fn steps_and_proofs_fit_their_documented_schemas() {
    let doc = document();
    let addr = server();
    let answer = |path: &str| {
        doc["paths"][path]["post"]["responses"]["200"]["content"]["application/json"]["schema"]
            .clone()
    };
    let fits = |path: &str, body: Value| {
        let r = post(addr, path, body.clone());
        assert_eq!(r.status, 200, "{path} {body}: {}", r.body);
        let value = r.json();
        if let Some(why) = misfit(&doc, &answer(path), &value, "answer") {
            panic!("{path} {body}: {why}");
        }
        value
    };
    // A cage comparison, a region parity (with a parity left), and the last step.
    let comparison = fits("/api/step", json!({"puzzle": NINE, "n": 6}));
    assert!(comparison["step"]["proof"][0]["cages"].is_array());
    let region = fits("/api/step", json!({"puzzle": SIX, "n": 7}));
    assert!(region["step"]["proof"][0]["lines"].is_array());
    let steps = fits("/api/load", json!({"puzzle": SIX}))["steps"]
        .as_array()
        .unwrap()
        .len();
    fits("/api/step", json!({"puzzle": SIX, "n": steps}));
    for (puzzle, n, k) in [(NINE, 6, 1), (NINE, 6, 5), (SIX, 7, 1)] {
        fits("/api/proof", json!({"puzzle": puzzle, "n": n, "k": k}));
    }
    for puzzle in [SIX, NINE] {
        let size = fits("/api/load", json!({"puzzle": puzzle}))["size"]
            .as_u64()
            .unwrap() as usize;
        fits(
            "/api/hint",
            json!({"puzzle": puzzle, "cells": blank(size), "level": "full"}),
        );
    }
    // With every operation hidden: no Tatham ID, the text format instead.
    let hidden = fits("/api/load", json!({"puzzle": FOUR, "hide_ops": true}));
    assert!(hidden["tatham"].is_null() && hidden["text"].is_string());
    fits("/api/load", json!({"puzzle": SIX, "hide_ops": false}));
    fits(
        "/api/step",
        json!({"puzzle": SIX, "n": 3, "hide_ops": true}),
    );
    fits(
        "/api/proof",
        json!({"puzzle": SIX, "n": 3, "k": 1, "hide_ops": true}),
    );
    fits(
        "/api/hint",
        json!({"puzzle": SIX, "cells": blank(6), "level": "full", "hide_ops": true}),
    );
    // The file's list.
    let list = get(addr, "/api/puzzles?limit=1000").json();
    let schema = &doc["paths"]["/api/puzzles"]["get"]["responses"]["200"]["content"]
        ["application/json"]["schema"];
    if let Some(why) = misfit(&doc, schema, &list, "answer") {
        panic!("/api/puzzles: {why}");
    }
    // The checker sees a misfit.
    let mut wrong = comparison.clone();
    wrong["step"]["technique_id"] = json!("x");
    assert!(misfit(&doc, &answer("/api/step"), &wrong, "answer").is_some());
}
