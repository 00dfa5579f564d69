//! `fairkit validate-report`: checks a report.json against the embedded JSON Schema
//! (schema/audit-v1.schema.json), so CI pipelines and the test suite validate without Python.
//!
//! A validator for the subset of JSON Schema 2020-12 the schema uses: `type` (one or a list),
//! `const`, `enum`, `properties`, `required`, `additionalProperties: false`, `items`,
//! `minItems`, `maxItems`, `minimum`, `maximum` and local `$ref`s (`#/$defs/NAME`). Any other
//! keyword in the schema is an error, so a schema edit can never be silently ignored.

use serde_json::Value;

/// The report schema, version 1.
pub const AUDIT_SCHEMA_V1: &str = include_str!("../schema/audit-v1.schema.json");

const ANNOTATIONS: [&str; 5] = ["$schema", "$id", "title", "description", "$defs"];

/// Every violation of `schema` by `instance`, as "path: problem" lines (empty = valid).
///
/// # Errors
/// A message when the schema itself uses an unsupported keyword or a bad `$ref`.
pub fn validate(schema: &Value, instance: &Value) -> Result<Vec<String>, String> {
    let mut errors = Vec::new();
    check(schema, schema, instance, "$", &mut errors)?;
    Ok(errors)
}

fn type_matches(t: &str, v: &Value) -> bool {
    match t {
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "boolean" => v.is_boolean(),
        "null" => v.is_null(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64(),
        _ => false,
    }
}

fn check(
    root: &Value,
    s: &Value,
    v: &Value,
    path: &str,
    errors: &mut Vec<String>,
) -> Result<(), String> {
    let Some(obj) = s.as_object() else {
        return Err(format!("{path}: a schema must be an object"));
    };
    for (key, rule) in obj {
        match key.as_str() {
            k if ANNOTATIONS.contains(&k) => {}
            "$ref" => {
                let name = rule
                    .as_str()
                    .and_then(|r| r.strip_prefix("#/$defs/"))
                    .ok_or_else(|| format!("{path}: unsupported $ref {rule}"))?;
                let target = root
                    .get("$defs")
                    .and_then(|d| d.get(name))
                    .ok_or_else(|| format!("{path}: $ref to a missing definition {name}"))?;
                check(root, target, v, path, errors)?;
            }
            "type" => {
                let types: Vec<&str> = match rule {
                    Value::String(t) => vec![t.as_str()],
                    Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
                    _ => return Err(format!("{path}: bad type rule {rule}")),
                };
                if !types.iter().any(|t| type_matches(t, v)) {
                    errors.push(format!(
                        "{path}: expected {}, found {v}",
                        types.join(" or ")
                    ));
                }
            }
            "const" => {
                if v != rule {
                    errors.push(format!("{path}: expected {rule}, found {v}"));
                }
            }
            "enum" => {
                if !rule.as_array().is_some_and(|opts| opts.contains(v)) {
                    errors.push(format!("{path}: {v} is not one of {rule}"));
                }
            }
            "required" => {
                if let (Some(o), Some(req)) = (v.as_object(), rule.as_array()) {
                    for r in req.iter().filter_map(Value::as_str) {
                        if !o.contains_key(r) {
                            errors.push(format!("{path}: missing property '{r}'"));
                        }
                    }
                }
            }
            "properties" => {
                if let (Some(o), Some(props)) = (v.as_object(), rule.as_object()) {
                    for (k, sub) in props {
                        if let Some(child) = o.get(k) {
                            check(root, sub, child, &format!("{path}.{k}"), errors)?;
                        }
                    }
                }
            }
            "additionalProperties" => {
                if rule != &Value::Bool(false) {
                    return Err(format!(
                        "{path}: only additionalProperties: false is supported"
                    ));
                }
                let props = obj.get("properties").and_then(Value::as_object);
                if let Some(o) = v.as_object() {
                    for k in o.keys() {
                        if !props.is_some_and(|p| p.contains_key(k)) {
                            errors.push(format!("{path}: unexpected property '{k}'"));
                        }
                    }
                }
            }
            "items" => {
                if let Some(a) = v.as_array() {
                    for (i, item) in a.iter().enumerate() {
                        check(root, rule, item, &format!("{path}[{i}]"), errors)?;
                    }
                }
            }
            "minItems" | "maxItems" => {
                let bound = rule.as_u64().ok_or_else(|| format!("{path}: bad {key}"))? as usize;
                if let Some(a) = v.as_array() {
                    let bad = if key == "minItems" {
                        a.len() < bound
                    } else {
                        a.len() > bound
                    };
                    if bad {
                        errors.push(format!("{path}: {} items violates {key} {bound}", a.len()));
                    }
                }
            }
            "minimum" | "maximum" => {
                let bound = rule.as_f64().ok_or_else(|| format!("{path}: bad {key}"))?;
                if let Some(x) = v.as_f64() {
                    let bad = if key == "minimum" {
                        x < bound
                    } else {
                        x > bound
                    };
                    if bad {
                        errors.push(format!("{path}: {x} violates {key} {bound}"));
                    }
                }
            }
            other => return Err(format!("{path}: unsupported schema keyword '{other}'")),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        serde_json::from_str(AUDIT_SCHEMA_V1).unwrap()
    }

    #[test]
    fn the_embedded_schema_uses_only_supported_keywords() {
        let s = schema();
        // Validating anything walks every reachable subschema of the root's keywords.
        assert!(validate(&s, &json!({})).is_ok());
        for def in s["$defs"].as_object().unwrap().values() {
            let wrapper = json!({"$defs": s["$defs"].clone()});
            let mut w = wrapper.as_object().unwrap().clone();
            for (k, v) in def.as_object().unwrap() {
                w.insert(k.clone(), v.clone());
            }
            validate(&Value::Object(w), &json!(null)).unwrap();
        }
    }

    #[test]
    fn catches_violations() {
        let s = json!({
            "type": "object", "required": ["a"], "additionalProperties": false,
            "properties": {"a": {"type": "integer", "minimum": 1}, "b": {"enum": ["x"]}}
        });
        assert!(validate(&s, &json!({"a": 2})).unwrap().is_empty());
        assert_eq!(validate(&s, &json!({"b": "x"})).unwrap().len(), 1);
        assert_eq!(validate(&s, &json!({"a": 0})).unwrap().len(), 1);
        assert_eq!(validate(&s, &json!({"a": 1.5})).unwrap().len(), 1);
        assert_eq!(validate(&s, &json!({"a": 1, "c": 1})).unwrap().len(), 1);
        assert_eq!(validate(&s, &json!({"a": 1, "b": "y"})).unwrap().len(), 1);
        assert!(validate(&json!({"pattern": "x"}), &json!("x")).is_err());
    }
}
