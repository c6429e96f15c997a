//! Integration tests of the techniques crate, in one test binary: each
//! technique's step on a hand-made pencil-mark position (`steps`), the whole corpus
//! graded with every step checked (`corpus`), agreement with the reference
//! solver (`reference`), and the bounds every run keeps (`deadline`).

mod common;

#[path = "techniques/corpus.rs"]
mod corpus;
#[path = "techniques/deadline.rs"]
mod deadline;
#[path = "techniques/reference.rs"]
mod reference;
#[path = "techniques/steps.rs"]
mod steps;
