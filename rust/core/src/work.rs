//! A work counter for the scanning loops, compiled only into the unit tests.
//!
//! Scanners call [`add`] with the number of bytes (or steps) they examine, including the
//! bytes a `memchr`/`memmem` search runs over. Tests reset the counter, run a function on
//! an input of size `n` and of size `10 n`, and check that the work grows no faster than
//! the input: a deterministic proof of linear time that does not depend on the machine.
//! In a normal build [`add`] is empty and compiles away.

#[cfg(test)]
use std::cell::Cell;

#[cfg(test)]
thread_local! {
    static STEPS: Cell<u64> = const { Cell::new(0) };
}

/// Count `n` steps of work.
#[inline(always)]
pub(crate) fn add(n: usize) {
    #[cfg(test)]
    STEPS.with(|s| s.set(s.get() + n as u64));
    #[cfg(not(test))]
    let _ = n;
}

/// A named input shape for the work tests: size -> text.
#[cfg(test)]
pub(crate) type Shape = (&'static str, Box<dyn Fn(usize) -> String>);

/// The steps counted on this thread while `f` ran.
#[cfg(test)]
pub(crate) fn count<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = STEPS.with(Cell::get);
    let out = f();
    (out, STEPS.with(Cell::get) - before)
}

/// Assert that `f` does at most `factor` times more work on `make(10 * n)` than on
/// `make(n)` (linear work gives a ratio of about 10), and that it does some work.
#[cfg(test)]
pub(crate) fn assert_linear<I>(what: &str, n: usize, factor: f64, make: impl Fn(usize) -> I, f: impl Fn(&I)) {
    let small = make(n);
    let large = make(10 * n);
    let (_, w1) = count(|| f(&small));
    let (_, w2) = count(|| f(&large));
    assert!(w1 > 0, "{what}: no work counted");
    let ratio = w2 as f64 / w1 as f64;
    assert!(ratio <= factor, "{what}: work {w1} at n={n}, {w2} at 10n (ratio {ratio:.1} > {factor})");
}
