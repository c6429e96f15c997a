//! A call's options object read into the libraries' option types: each set
//! (`HideOps`, `GradeOptions`, `GenerateOptions`, a call's own fields) takes
//! the keys named as its fields, and is read by serde and checked by the
//! libraries' one constructor, as the Python package reads its keyword
//! arguments; a key no set takes is a `TypeError`.
//!
//! Keys may be written as the libraries name them (`max_depth`) or in
//! JavaScript's camelCase (`maxDepth`); messages use the libraries' names. A key
//! set to `undefined` or `null` takes its default, as Python's `None` does.

use crate::Failure;
use kenken_model::options::field_names;
use serde::de::DeserializeOwned;
use wasm_bindgen::JsValue;

/// The keys of an options object not yet taken, with their values.
pub struct Given {
    function: &'static str,
    entries: Vec<(String, JsValue)>,
}

impl Given {
    /// The options object of a call to `function` (`undefined` or `null`: none).
    pub fn new(function: &'static str, options: JsValue) -> Result<Given, Failure> {
        let mut given = Given {
            function,
            entries: Vec::new(),
        };
        if options.is_undefined() || options.is_null() {
            return Ok(given);
        }
        if !options.is_object() || js_sys::Array::is_array(&options) {
            return Err(Failure::new(
                "TypeError",
                format!("{function}(): the options must be an object"),
            ));
        }
        let object = js_sys::Object::from(options);
        for entry in js_sys::Object::entries(&object).iter() {
            let pair = js_sys::Array::from(&entry);
            let key = pair.get(0).as_string().unwrap_or_default();
            let value = pair.get(1);
            if value.is_undefined() || value.is_null() {
                continue;
            }
            given.entries.push((snake_case(&key), value));
        }
        Ok(given)
    }

    /// Takes the option set `T` (the keys named as its fields; its defaults for
    /// the others), read by serde: a value of the wrong type is an
    /// `OptionsError` naming the option.
    pub fn take<T: DeserializeOwned + Default>(&mut self) -> Result<T, Failure> {
        let names = field_names::<T>();
        let object = js_sys::Object::new();
        let mut any = false;
        self.entries.retain(|(key, value)| {
            if names.contains(&key.as_str()) {
                // Setting a property of a fresh object cannot fail.
                let _ = js_sys::Reflect::set(&object, &key.into(), value);
                any = true;
                false
            } else {
                true
            }
        });
        if !any {
            return Ok(T::default());
        }
        read(object.into())
    }

    /// Whether the option `name` is given (and not yet taken).
    pub fn has(&self, name: &str) -> bool {
        self.entries.iter().any(|(key, _)| key == name)
    }

    /// Takes the option `name`, read as `T` (None when not given).
    pub fn take_one<T: DeserializeOwned>(&mut self, name: &str) -> Result<Option<T>, Failure> {
        let Some(at) = self.entries.iter().position(|(key, _)| key == name) else {
            return Ok(None);
        };
        let (_, value) = self.entries.remove(at);
        serde_wasm_bindgen::from_value(value)
            .map(Some)
            .map_err(|e| Failure::options(format!("{name}: {}", problem(&e))))
    }

    /// Every key taken: one left over is a `TypeError` naming it.
    pub fn finish(self) -> Result<(), Failure> {
        match self.entries.first() {
            Some((key, _)) => Err(Failure::new(
                "TypeError",
                format!("{}() got an unknown option '{key}'", self.function),
            )),
            None => Ok(()),
        }
    }
}

/// A JavaScript value read as `T`, a problem named by its path (`max_depth:
/// invalid type: …`).
fn read<T: DeserializeOwned>(value: JsValue) -> Result<T, Failure> {
    let deserializer = serde_wasm_bindgen::Deserializer::from(value);
    serde_path_to_error::deserialize(deserializer).map_err(|e| {
        let path = e.path().to_string();
        Failure::options(format!("{path}: {}", problem(e.inner())))
    })
}

/// What serde found wrong with a value, without the `Error: ` that a
/// JavaScript error's text starts with.
fn problem(e: &serde_wasm_bindgen::Error) -> String {
    let text = e.to_string();
    text.strip_prefix("Error: ").unwrap_or(&text).to_string()
}

/// `maxDepth` as `max_depth`; a name already in snake case is kept.
pub fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use kenken_batch::{GradeOptions, HideOps};
    use kenken_generator::GenerateOptions;

    #[test]
    fn names_in_either_case() {
        assert_eq!(snake_case("maxDepth"), "max_depth");
        assert_eq!(snake_case("max_depth"), "max_depth");
        assert_eq!(snake_case("hideOps"), "hide_ops");
        assert_eq!(snake_case("cageSizes"), "cage_sizes");
    }

    #[test]
    fn the_option_sets_name_their_fields() {
        assert_eq!(field_names::<HideOps>(), ["hide_ops"]);
        assert!(field_names::<GradeOptions>().contains(&"max_depth"));
        assert!(field_names::<GenerateOptions>().contains(&"max_tries"));
    }
}
