//! Integration tests of the techniques crate, in one test binary: each
//! technique's step on a hand-made pencil-mark position (`steps`), the whole corpus
//! graded with every step checked (`corpus`), every proof of every hard step
//! checked by brute force, every cage comparison's chain replayed and every
//! text of those steps read for wording slips (`proofs`, `chains`, `words`),
//! agreement with the reference
//! solver (`reference`), the bounds every run keeps (`deadline`), random and
//! mutated puzzles graded under a short deadline (`fuzz`), and the
//! cage-combination engines against each other (`engines`).

mod common;

#[path = "techniques/chains.rs"]
mod chains;
#[path = "techniques/corpus.rs"]
mod corpus;
#[path = "techniques/deadline.rs"]
mod deadline;
#[path = "techniques/engines.rs"]
mod engines;
#[path = "techniques/fuzz.rs"]
mod fuzz;
#[path = "techniques/proofs.rs"]
mod proofs;
#[path = "techniques/reference.rs"]
mod reference;
#[path = "techniques/steps.rs"]
mod steps;
#[path = "techniques/words.rs"]
mod words;
