//! Solving techniques (see issue 3).
