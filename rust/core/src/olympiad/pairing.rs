//! The greedy pairing of §5.3 step 9 in O(n log n) for the common pieces, with the same
//! decisions as the plain loop ([`super::pair_lists`]): the same pairs in the same order,
//! the same `IndexError`, the same "pending" (a visited pair needs SymPy).
//!
//! The plain loop asks, for the visited prediction piece `a`, for the first remaining
//! truth piece `b` whose verdict is not `NotEqual` (a `Equal` pairs them, an `Unknown`
//! makes the row pending). Here the truth pieces are sorted into classes by what
//! [`pair_fast`] can make of them, and for most pairs of classes the verdict is known from
//! the class alone or from the two numbers:
//!
//! | a \ b    | Num            | NumOnly        | Letters | Fails | General |
//! |----------|----------------|----------------|---------|-------|---------|
//! | Num      | value windows  | numeric window | never   | never | scan    |
//! | NumOnly  | numeric window | always         | always  | never | scan    |
//! | Letters  | never          | always         | always  | never | scan    |
//! | Fails    | never          | never          | never   | same string | never |
//! | General  | scan           | scan           | scan    | never | scan    |
//!
//! "never": always `NotEqual`; "always": never `NotEqual` (the earliest such piece ends
//! the search); "windows": a range of sorted truth values, the earliest remaining piece in
//! it found with a segment tree; "scan": every piece checked with [`pair_fast`] in order,
//! as the plain loop does. Every piece a window or class proposes is still checked with
//! [`pair_fast`] before it is used; should that ever disagree, the query falls back to the
//! plain scan, so a wrong class can cost time but not a decision.
//!
//! The numeric test `|v - y| <= t` (v = x/100, x, 100x) holds on an exact range of sorted
//! `y` (floating-point subtraction is monotone). The expression test between two plain
//! numbers (`Shape::Literal` made by `Lit::num`) holds for `|x - y| <= b(y)` with
//! `b(y) = t0 + c |y|`; it is exact on an inner range and false outside an outer range,
//! both computed with a relative margin far above the rounding of `b`; the few values in
//! between are checked one by one.

use std::collections::{BTreeSet, HashMap, VecDeque};

use super::{extract_expression, is_interval, pair_fast, shape, Lit, Pair, Shape, Variant, SLACK, U};
use crate::text::py_float;
use crate::work;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    /// No `=`, `float()` gives a finite `x` and `parse_latex` the plain number `x`.
    Num,
    /// No `=`, `float()` gives a finite number, the expression test sees a Symbol (`1e5`).
    NumOnly,
    /// No `=`, not an interval, no `float()`, the expression test sees a Symbol.
    Letters,
    /// No `=`, not an interval, no `float()`, `parse_latex` fails (the empty piece).
    Fails,
    General,
}

fn classify(s: &str) -> (Class, f64) {
    work::add(s.len() + 1);
    if s.contains('=') || is_interval(s) {
        return (Class::General, 0.0);
    }
    match (py_float(s), shape(extract_expression(s))) {
        (Some(x), Shape::Literal(l)) if x.is_finite() && l == Lit::num(x) => (Class::Num, x),
        (Some(x), Shape::Letters) if x.is_finite() => (Class::NumOnly, x),
        (None, Shape::Letters) => (Class::Letters, 0.0),
        (None, Shape::Fails) => (Class::Fails, 0.0),
        _ => (Class::General, 0.0),
    }
}

/// `log2(n) + 1`: the work of one tree or search operation over `n` items.
fn lg(n: usize) -> usize {
    (usize::BITS - n.leading_zeros()) as usize + 1
}

/// Positions `0..n`, some removed; the k-th remaining one in O(log n).
struct Ranks {
    tree: Vec<usize>,
    len: usize,
}

impl Ranks {
    fn new(n: usize) -> Self {
        let mut tree = vec![0; n + 1];
        for i in 1..=n {
            tree[i] += 1;
            let j = i + (i & i.wrapping_neg());
            if j <= n {
                tree[j] += tree[i];
            }
        }
        Ranks { tree, len: n }
    }

    fn remove(&mut self, pos: usize) {
        let n = self.tree.len() - 1;
        let mut i = pos + 1;
        while i <= n {
            self.tree[i] -= 1;
            i += i & i.wrapping_neg();
        }
        self.len -= 1;
        work::add(lg(n));
    }

    /// The position of the `k`-th remaining item (`k < len`).
    fn nth(&self, k: usize) -> usize {
        let n = self.tree.len() - 1;
        let mut pos = 0;
        let mut rest = k + 1;
        let mut step = if n == 0 { 0 } else { 1 << (usize::BITS - 1 - n.leading_zeros()) };
        while step > 0 {
            if pos + step <= n && self.tree[pos + step] < rest {
                pos += step;
                rest -= self.tree[pos];
            }
            step >>= 1;
        }
        work::add(lg(n));
        pos
    }
}

const NONE: usize = usize::MAX;

/// Truth pieces of one numeric class, by distinct value: the earliest remaining position
/// over a range of values in O(log n).
struct ValueIndex {
    values: Vec<f64>,
    queues: Vec<VecDeque<usize>>,
    /// Segment tree of the queue fronts (minimum).
    tree: Vec<usize>,
    size: usize,
}

impl ValueIndex {
    fn new(mut items: Vec<(f64, usize)>) -> Self {
        items.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        work::add(items.len() * lg(items.len()));
        let mut values: Vec<f64> = Vec::new();
        let mut queues: Vec<VecDeque<usize>> = Vec::new();
        for (v, pos) in items {
            if values.last().is_some_and(|l| l.to_bits() == v.to_bits()) {
                queues.last_mut().expect("a queue per value").push_back(pos);
            } else {
                values.push(v);
                queues.push(VecDeque::from([pos]));
            }
        }
        let size = values.len().next_power_of_two().max(1);
        let mut tree = vec![NONE; 2 * size];
        for (i, q) in queues.iter().enumerate() {
            tree[size + i] = q[0];
        }
        for i in (1..size).rev() {
            tree[i] = tree[2 * i].min(tree[2 * i + 1]);
        }
        ValueIndex { values, queues, tree, size }
    }

    /// The value slot of a remaining position's value.
    fn slot(&self, v: f64) -> usize {
        work::add(lg(self.values.len()));
        self.values.partition_point(|y| y.total_cmp(&v).is_lt())
    }

    /// Remove `pos`, the front of its value's queue.
    fn pop(&mut self, v: f64, pos: usize) {
        let k = self.slot(v);
        let q = &mut self.queues[k];
        debug_assert_eq!(q.front(), Some(&pos));
        q.pop_front();
        let mut i = self.size + k;
        self.tree[i] = q.front().copied().unwrap_or(NONE);
        while i > 1 {
            i /= 2;
            self.tree[i] = self.tree[2 * i].min(self.tree[2 * i + 1]);
        }
        work::add(lg(self.size));
    }

    /// The earliest remaining position among the value slots `lo..hi`.
    fn min(&self, lo: usize, hi: usize) -> usize {
        if lo >= hi {
            return NONE;
        }
        let (mut l, mut r) = (lo + self.size, hi + self.size);
        let mut best = NONE;
        while l < r {
            if l & 1 == 1 {
                best = best.min(self.tree[l]);
                l += 1;
            }
            if r & 1 == 1 {
                r -= 1;
                best = best.min(self.tree[r]);
            }
            l /= 2;
            r /= 2;
        }
        work::add(2 * lg(self.size));
        best
    }

    /// The slots whose value `y` has `|fl(v - y)| <= t`: a range, since `fl(v - y)` does
    /// not increase with `y`.
    fn numeric_window(&self, v: f64, t: f64) -> (usize, usize) {
        work::add(2 * lg(self.values.len()));
        let lo = self.values.partition_point(|&y| (v - y) > t || (v - y).is_nan());
        let hi = self.values.partition_point(|&y| (v - y) >= -t);
        (lo, hi.max(lo))
    }

    /// The slots with values in `[lo, hi]`.
    fn range(&self, lo: f64, hi: f64) -> (usize, usize) {
        work::add(2 * lg(self.values.len()));
        let a = self.values.partition_point(|&y| y < lo);
        let b = self.values.partition_point(|&y| y <= hi);
        (a, b.max(a))
    }
}

/// Within this relative margin of `b(y)` the computed expression test may differ from the
/// exact one (it rounds a handful of times, each within 2^-53).
const MARGIN: f64 = 16.0 * f64::EPSILON / 2.0;

/// The largest `y >= x` with `y - x <= k (t0 + c |y|)` (real arithmetic).
fn reach(x: f64, t0: f64, c: f64, k: f64) -> f64 {
    let r = (x + k * t0) / (1.0 - k * c);
    if r >= 0.0 {
        r
    } else {
        (x + k * t0) / (1.0 + k * c)
    }
}

/// For a `Num` prediction `x` against `Num` truths: the values where the expression test
/// is certainly not `NotEqual` (`inner`, possibly empty) and outside of which it certainly
/// is (`outer`); `None` when it never is (openbmb with an unusable tolerance).
fn expression_ranges(x: f64, t: f64, variant: Variant) -> Option<((f64, f64), (f64, f64))> {
    let t0 = match variant {
        Variant::OpenBmb => {
            if t.is_nan() || t < 0.0 || !t.is_finite() {
                return None;
            }
            t
        }
        Variant::VlmEvalKit => 0.0,
    } + x.abs() * 4.0 * U
        + SLACK * x.abs()
        + f64::MIN_POSITIVE;
    let c = 4.0 * U + SLACK;
    // Room for the rounding of this arithmetic itself (a cancelling `x + k t0`).
    let e = 1e-13 * (x.abs() + t0) + f64::MIN_POSITIVE;
    let (up, down) = (1.0 + MARGIN, 1.0 - MARGIN);
    let outer = (-reach(-x, t0, c, up) - e, reach(x, t0, c, up) + e);
    let inner = (-reach(-x, t0, c, down) + e, reach(x, t0, c, down) - e);
    Some((inner, outer))
}

/// Remaining precision values: `prec[k]` of the k-th remaining one, and `remove(p)` of the
/// first remaining value equal to `p` (the visited one itself when `p` is NaN).
struct PrecList {
    values: Vec<f64>,
    ranks: Ranks,
    by_value: HashMap<u64, VecDeque<usize>>,
}

fn value_key(p: f64) -> u64 {
    if p == 0.0 {
        0
    } else {
        p.to_bits()
    }
}

impl PrecList {
    fn new(values: Vec<f64>) -> Self {
        let mut by_value: HashMap<u64, VecDeque<usize>> = HashMap::new();
        for (i, &p) in values.iter().enumerate() {
            if !p.is_nan() {
                by_value.entry(value_key(p)).or_default().push_back(i);
            }
        }
        work::add(values.len());
        let ranks = Ranks::new(values.len());
        PrecList { values, ranks, by_value }
    }

    fn get(&self, k: usize) -> Option<(f64, usize)> {
        (k < self.ranks.len).then(|| {
            let pos = self.ranks.nth(k);
            (self.values[pos], pos)
        })
    }

    fn remove(&mut self, p: f64, visited: usize) {
        let pos = if p.is_nan() {
            visited
        } else {
            self.by_value.get_mut(&value_key(p)).and_then(VecDeque::pop_front).unwrap_or(visited)
        };
        self.ranks.remove(pos);
    }
}

/// The truth side: remaining pieces by class.
struct Truths<'a> {
    text: Vec<&'a str>,
    class: Vec<(Class, f64)>,
    num: ValueIndex,
    num_only: ValueIndex,
    letters: BTreeSet<usize>,
    num_only_set: BTreeSet<usize>,
    general: BTreeSet<usize>,
    /// Every remaining piece that is not `Fails`, for `General` predictions.
    open: BTreeSet<usize>,
    /// `Fails` pieces by text (only an identical non-empty piece can equal one).
    fails: HashMap<&'a str, VecDeque<usize>>,
}

impl<'a> Truths<'a> {
    fn new(text: Vec<&'a str>) -> Self {
        let class: Vec<(Class, f64)> = text.iter().map(|s| classify(s)).collect();
        let mut num = Vec::new();
        let mut num_only = Vec::new();
        let (mut letters, mut num_only_set, mut general, mut open) =
            (BTreeSet::new(), BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
        let mut fails: HashMap<&str, VecDeque<usize>> = HashMap::new();
        for (j, &(c, v)) in class.iter().enumerate() {
            match c {
                Class::Num => num.push((v, j)),
                Class::NumOnly => {
                    num_only.push((v, j));
                    num_only_set.insert(j);
                }
                Class::Letters => {
                    letters.insert(j);
                }
                Class::General => {
                    general.insert(j);
                }
                Class::Fails => fails.entry(text[j]).or_default().push_back(j),
            }
            if c != Class::Fails {
                open.insert(j);
            }
        }
        work::add(4 * class.len() * lg(class.len()));
        Truths {
            text,
            class,
            num: ValueIndex::new(num),
            num_only: ValueIndex::new(num_only),
            letters,
            num_only_set,
            general,
            open,
            fails,
        }
    }

    fn remove(&mut self, j: usize) {
        let (c, v) = self.class[j];
        match c {
            Class::Num => self.num.pop(v, j),
            Class::NumOnly => {
                self.num_only.pop(v, j);
                self.num_only_set.remove(&j);
            }
            Class::Letters => {
                self.letters.remove(&j);
            }
            Class::General => {
                self.general.remove(&j);
            }
            Class::Fails => {
                let q = self.fails.get_mut(self.text[j]).expect("a queue per text");
                debug_assert_eq!(q.front(), Some(&j));
                q.pop_front();
            }
        }
        if c != Class::Fails {
            self.open.remove(&j);
        }
        work::add(2 * lg(self.text.len()));
    }

    /// The verdict of the plain loop's visit: the first remaining piece that is not
    /// `NotEqual`, scanning `candidates` in order.
    fn scan<'s>(&self, a: &str, p: f64, variant: Variant, candidates: impl Iterator<Item = &'s usize>, before: usize) -> Option<(usize, Pair)> {
        for &j in candidates {
            if j >= before {
                break;
            }
            work::add(1);
            match pair_fast(a, self.text[j], p, variant) {
                Pair::NotEqual => {}
                v => return Some((j, v)),
            }
        }
        None
    }

    /// The earliest remaining truth piece whose verdict against `a` is not `NotEqual`,
    /// with that verdict.
    fn first_match(&self, a: &str, (ca, x): (Class, f64), p: f64, variant: Variant) -> Option<(usize, Pair)> {
        if ca == Class::General {
            return self.scan(a, p, variant, self.open.iter(), NONE);
        }
        if ca == Class::Fails {
            if a.is_empty() {
                return None;
            }
            let j = self.fails.get(a).and_then(|q| q.front().copied())?;
            work::add(1);
            return Some((j, pair_fast(a, self.text[j], p, variant)));
        }
        let t = p * 1.01;
        // The earliest piece proposed by a class or a window; every proposal is one that
        // cannot be `NotEqual`.
        let mut best = NONE;
        let windows = |index: &ValueIndex, best: &mut usize| {
            for v in [x / 100.0, x, x * 100.0] {
                let (lo, hi) = index.numeric_window(v, t);
                *best = (*best).min(index.min(lo, hi));
            }
        };
        // Band values checked one by one (the expression test near its tolerance edge).
        let mut band: Vec<usize> = Vec::new();
        match ca {
            Class::Num => {
                windows(&self.num, &mut best);
                windows(&self.num_only, &mut best);
                match expression_ranges(x, t, variant) {
                    None => best = best.min(self.num.min(0, self.num.values.len())),
                    Some(((ilo, ihi), (olo, ohi))) => {
                        let (a0, b0) = self.num.range(olo, ohi);
                        let (a1, b1) = if ilo <= ihi { self.num.range(ilo, ihi) } else { (a0, a0) };
                        let (a1, b1) = (a1.clamp(a0, b0), b1.clamp(a0, b0).max(a1.clamp(a0, b0)));
                        best = best.min(self.num.min(a1, b1));
                        band.extend((a0..a1).chain(b1..b0));
                    }
                }
            }
            Class::NumOnly => {
                windows(&self.num, &mut best);
                best = best.min(self.num_only_set.first().copied().unwrap_or(NONE));
                best = best.min(self.letters.first().copied().unwrap_or(NONE));
            }
            Class::Letters => {
                best = best.min(self.num_only_set.first().copied().unwrap_or(NONE));
                best = best.min(self.letters.first().copied().unwrap_or(NONE));
            }
            Class::Fails | Class::General => unreachable!("handled above"),
        }
        work::add(band.len());
        for k in band {
            let j = self.num.queues[k].front().copied().unwrap_or(NONE);
            if j < best {
                work::add(1);
                if pair_fast(a, self.text[j], p, variant) != Pair::NotEqual {
                    best = j;
                }
            }
        }
        // `General` pieces before it: in order, as the plain loop visits them.
        if let Some(hit) = self.scan(a, p, variant, self.general.iter(), best) {
            return Some(hit);
        }
        if best == NONE {
            return None;
        }
        work::add(1);
        match pair_fast(a, self.text[best], p, variant) {
            Pair::NotEqual => {
                debug_assert!(false, "class table wrong for {a:?} vs {:?}", self.text[best]);
                self.scan(a, p, variant, self.open.iter(), NONE)
            }
            v => Some((best, v)),
        }
    }
}

/// [`super::pair_lists`] with [`pair_fast`] as the oracle, in O((n1 + n2) log n) for
/// pieces of the classes above; `pairs` (if given) receives the pairs made, as original
/// positions `(i, j)`, in order.
pub fn pair_lists_fast<S: AsRef<str>>(
    list1: &[S],
    list2: &[S],
    prec: Vec<f64>,
    variant: Variant,
    mut pairs: Option<&mut Vec<(usize, usize)>>,
) -> Result<bool, bool> {
    let preds: Vec<&str> = list1.iter().map(AsRef::as_ref).collect();
    let pred_class: Vec<(Class, f64)> = preds.iter().map(|s| classify(s)).collect();
    let mut first_of: HashMap<&str, VecDeque<usize>> = HashMap::new();
    for (i, s) in preds.iter().enumerate() {
        first_of.entry(s).or_default().push_back(i);
    }
    let mut left = Ranks::new(preds.len());
    let mut truths = Truths::new(list2.iter().map(AsRef::as_ref).collect());
    let mut prec = PrecList::new(prec);
    let mut idx: isize = -1;
    while left.len > 0 {
        idx = (idx + 1).rem_euclid(left.len as isize);
        let k = idx as usize;
        let i = left.nth(k);
        let (p, p_pos) = prec.get(k).ok_or(true)?;
        let (j, verdict) = match truths.first_match(preds[i], pred_class[i], p, variant) {
            None => return Ok(false),
            Some(hit) => hit,
        };
        match verdict {
            Pair::Equal(_) => {}
            Pair::Unknown => return Err(false),
            Pair::NotEqual => unreachable!("first_match skips NotEqual"),
        }
        // list.remove(x) removes the first remaining piece equal to x.
        let first = first_of.get_mut(preds[i]).and_then(VecDeque::pop_front).expect("a queue per text");
        left.remove(first);
        truths.remove(j);
        prec.remove(p, p_pos);
        if let Some(out) = pairs.as_deref_mut() {
            out.push((first, j));
        }
    }
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::super::{judge_fast, pair_lists, Judged, Path, Precision};
    use super::*;
    use crate::test_rng::Rng;

    /// The plain loop of §5.3 step 9 with [`pair_fast`], recording the pairs it makes (as
    /// original positions) and the number of pair tests.
    fn plain(
        list1: &[String],
        list2: &[String],
        mut prec: Vec<f64>,
        variant: Variant,
    ) -> (Result<bool, bool>, Vec<(usize, usize)>, u64) {
        let mut l1: Vec<(usize, &str)> = list1.iter().map(String::as_str).enumerate().collect();
        let mut l2: Vec<(usize, &str)> = list2.iter().map(String::as_str).enumerate().collect();
        let (mut pairs, mut tests) = (Vec::new(), 0u64);
        let mut idx: isize = -1;
        while !l1.is_empty() {
            idx = (idx + 1).rem_euclid(l1.len() as isize);
            let i = idx as usize;
            let Some(&p) = prec.get(i) else { return (Err(true), pairs, tests) };
            let mut hit = None;
            for (j, item2) in l2.iter().enumerate() {
                tests += 1;
                match pair_fast(l1[i].1, item2.1, p, variant) {
                    Pair::Equal(_) => {
                        hit = Some(j);
                        break;
                    }
                    Pair::NotEqual => {}
                    Pair::Unknown => return (Err(false), pairs, tests),
                }
            }
            let Some(j) = hit else { return (Ok(false), pairs, tests) };
            let k1 = l1.iter().position(|x| x.1 == l1[i].1).expect("present");
            let k2 = l2.iter().position(|x| x.1 == l2[j].1).expect("present");
            pairs.push((l1[k1].0, l2[k2].0));
            l1.remove(k1);
            l2.remove(k2);
            let kp = prec.iter().position(|&x| x == p).unwrap_or(i);
            prec.remove(kp);
        }
        (Ok(true), pairs, tests)
    }

    fn fast(list1: &[String], list2: &[String], prec: Vec<f64>, variant: Variant) -> (Result<bool, bool>, Vec<(usize, usize)>) {
        let mut pairs = Vec::new();
        let r = pair_lists_fast(list1, list2, prec, variant, Some(&mut pairs));
        (r, pairs)
    }

    fn check(list1: &[String], list2: &[String], prec: &[f64], variant: Variant) -> Result<bool, bool> {
        let (r, pairs, _) = plain(list1, list2, prec.to_vec(), variant);
        let oracle = |x: &str, y: &str, p: f64| match pair_fast(x, y, p, variant) {
            Pair::Equal(_) => Some(true),
            Pair::NotEqual => Some(false),
            Pair::Unknown => None,
        };
        assert_eq!(r, pair_lists(list1.to_vec(), list2.to_vec(), prec.to_vec(), oracle), "{list1:?} {list2:?}");
        assert_eq!(fast(list1, list2, prec.to_vec(), variant), (r, pairs), "{list1:?} vs {list2:?} {prec:?} {variant:?}");
        r
    }

    /// Pieces of every class, with duplicates, numbers at and near the tolerance edges
    /// (including the percent variants) and texts that differ only in writing.
    fn piece(rng: &mut Rng) -> String {
        const FIXED: [&str; 40] = [
            "1", "1.0", "1.00", "+1", "-1", "0", "-0", "0.0", "100", "0.01", "50", "0.5", "2", "3", "x", "y", "ab",
            "1e5", "100000", "1E5", "1e-8", "inf", "nan", "", "(1,2", "(1,2)", "[1,2]", "x=1", "1=x", "\\frac{1}{2}",
            "2^{10}", "1024", "\\pi", "3.14159", "1_0", "10", "a+b", "- 1", "2x", "١٢",
        ];
        match rng.below(4) {
            0 => FIXED[rng.below(FIXED.len())].to_string(),
            1 => {
                // A base and an offset around 1.01e-8 (the default tolerance) or 1.01e-2.
                let base = [0.0, 1.0, -1.0, 0.5, 100.0, 0.01, 3.0][rng.below(7)];
                let scale = [1e-8, 1e-2, 0.0][rng.below(3)];
                let f = [0.0, 0.5, 1.0, 1.01, 1.0100000001, 1.00999999, 1.02, 2.0, -1.01, -1.0100000001][rng.below(10)];
                format!("{}", base + scale * f)
            }
            2 => format!("{}", rng.below(6)),
            _ => {
                let d = rng.below(1000) as f64 * 1e-9;
                format!("{}", [d, -d, 1.0 + d, 1.0 - d][rng.below(4)])
            }
        }
    }

    #[test]
    fn same_pairs_as_the_plain_loop() {
        let mut rng = Rng::new(0x5eed_0013);
        let precs: [&[f64]; 9] = [
            &[1e-8],
            &[1e-2],
            &[0.0],
            &[-1.0],
            &[f64::NAN],
            &[f64::INFINITY],
            &[1e-8, 1e-2, 1e-8, 0.0, 1e-2, 1e-8, 1e-8, 1e-2, 1e-8, 1e-8, 1e-8, 1e-8],
            &[1e-8, f64::NAN, 0.5, -0.0, 0.0, 1e-8, f64::NAN, 1e-8, 1e-8, 1e-8, 1e-8, 1e-8],
            &[1e-8, 1e-2],
        ];
        let (mut outcomes, mut long_pairings) = ([0usize; 4], 0usize);
        for round in 0..20_000 {
            let n = 1 + rng.below(if round % 10 == 0 { 12 } else { 6 });
            let list1: Vec<String> = (0..n).map(|_| piece(&mut rng)).collect();
            let mut list2: Vec<String> = (0..n).map(|_| piece(&mut rng)).collect();
            if rng.below(2) == 0 {
                // A permutation of the prediction, often with an edit: pairs mostly succeed.
                list2 = list1.clone();
                for k in (1..n).rev() {
                    list2.swap(k, rng.below(k + 1));
                }
                if rng.below(2) == 0 {
                    let k = rng.below(n);
                    list2[k] = piece(&mut rng);
                }
            }
            let prec = precs[rng.below(precs.len())];
            let prec: Vec<f64> = if prec.len() == 1 { vec![prec[0]; n] } else { prec.to_vec() };
            for variant in [Variant::OpenBmb, Variant::VlmEvalKit] {
                let r = check(&list1, &list2, &prec, variant);
                let k = match r {
                    Ok(true) => 0,
                    Ok(false) => 1,
                    Err(false) => 2,
                    Err(true) => 3,
                };
                outcomes[k] += 1;
                if r == Ok(true) {
                    long_pairings += usize::from(n >= 6);
                }
            }
        }
        // Every outcome is exercised: paired, not paired, pending (SymPy), IndexError.
        assert!(outcomes.iter().all(|&c| c >= 500), "{outcomes:?}");
        assert!(long_pairings >= 500, "{long_pairings}");
    }

    #[test]
    fn tolerance_edges() {
        // Non-transitive tolerance: 2k·1e-8 is within 1.01e-8 of (2k±1)·1e-8.
        for n in [5, 40] {
            let a: Vec<String> = (0..n).map(|k| format!("{}", 2e-8 * k as f64)).collect();
            let b: Vec<String> = (0..n).rev().map(|k| format!("{}", 2e-8 * k as f64 + 1e-8)).collect();
            let c: Vec<String> = (0..n).map(|k| format!("{}", 2e-8 * k as f64 - 1e-8)).collect();
            for variant in [Variant::OpenBmb, Variant::VlmEvalKit] {
                for p in [1e-8, 0.99e-8, 2e-8, 0.0] {
                    for (x, y) in [(&a, &b), (&a, &c), (&b, &a)] {
                        let _ = check(x, y, &vec![p; n], variant);
                    }
                }
            }
        }
        // Values right at the edge of the expression test's slack.
        for k in 0..200 {
            let x = 1.0 + k as f64 * 1e-15;
            let a = vec!["1".to_string(), format!("{x}")];
            let b = vec![format!("{}", 1.0 + 1.01e-8 + k as f64 * 1e-17), format!("{x}")];
            for variant in [Variant::OpenBmb, Variant::VlmEvalKit] {
                for (x, y, p) in [(&a, &b, 1e-8), (&b, &a, 1e-8), (&a, &b, 0.0)] {
                    let _ = check(x, y, &[p, p], variant);
                }
            }
        }
    }

    fn join(v: &[String]) -> String {
        v.join(",")
    }

    /// An input shape for the work tests: n -> (prediction pieces, truth pieces).
    type Lists = Box<dyn Fn(usize) -> (Vec<String>, Vec<String>)>;

    fn shapes() -> Vec<(&'static str, Lists)> {
        let num = |k: usize| format!("{k}");
        vec![
            ("all equal", Box::new(|n| (vec!["1".into(); n], vec!["1.0".into(); n]))),
            (
                "all different, same order",
                Box::new(|n| ((0..n).map(|k| format!("{k}.5")).collect(), (0..n).map(|k| format!("{k}.50")).collect())),
            ),
            ("all different, reversed", Box::new(move |n| ((0..n).map(num).collect(), (0..n).rev().map(num).collect()))),
            (
                "percent variants, reversed",
                Box::new(|n| {
                    let a = (0..n).map(|k| format!("{k}.5")).collect();
                    let b = (0..n).rev().map(|k| format!("{}", (k as f64 + 0.5) / 100.0)).collect();
                    (a, b)
                }),
            ),
            (
                "near-tolerance chain, reversed",
                Box::new(|n| {
                    // 1 + 2k·1e-8 is within 1.01e-8 of 1 + (2k±1)·1e-8: two candidates each.
                    let a = (0..n).map(|k| format!("{}", 1.0 + 2e-8 * k as f64)).collect();
                    let b = (0..n).rev().map(|k| format!("{}", 1.0 + 2e-8 * k as f64 + 1e-8)).collect();
                    (a, b)
                }),
            ),
            (
                "numbers with a 1e5 form, reversed",
                Box::new(|n| ((0..n).map(|k| format!("{k}e0")).collect(), (0..n).rev().map(|k| format!("{k}")).collect())),
            ),
            (
                "words after numbers",
                Box::new(|n| {
                    let mut a: Vec<String> = vec!["x".into(); n / 2];
                    a.extend((0..n / 2).map(|k| format!("{k}")));
                    let mut b: Vec<String> = (0..n / 2).rev().map(|k| format!("{k}")).collect();
                    b.extend(vec!["x".to_string(); n / 2]);
                    (a, b)
                }),
            ),
            (
                "mixed words and numbers, reversed",
                Box::new(|n| {
                    let a: Vec<String> = (0..n).map(|k| if k % 2 == 0 { "yes".into() } else { format!("{k}") }).collect();
                    let b = a.iter().rev().cloned().collect();
                    (a, b)
                }),
            ),
            (
                "unparseable pieces, reversed",
                Box::new(|n| {
                    let a: Vec<String> = (0..n).map(|k| format!("(x{k},1)z")).collect();
                    let b = a.iter().rev().cloned().collect();
                    (a, b)
                }),
            ),
            (
                "no match for a late piece",
                Box::new(|n| {
                    let a: Vec<String> = (0..n).map(|k| format!("{k}")).collect();
                    let mut b: Vec<String> = a.iter().rev().cloned().collect();
                    b[0] = "-5".into();
                    (a, b)
                }),
            ),
        ]
    }

    #[test]
    fn pairing_does_n_log_n_work() {
        let one = Precision::One(1e-8);
        for (name, make) in shapes() {
            let (a, b) = make(300);
            for variant in [Variant::OpenBmb, Variant::VlmEvalKit] {
                let _ = check(&a, &b, &vec![1e-8; a.len()], variant);
            }
            for variant in [Variant::OpenBmb, Variant::VlmEvalKit] {
                // The whole judge, text in, over 2,000 and 20,000 pieces: n log n work
                // grows about 13-fold here, quadratic work 100-fold.
                crate::work::assert_linear(
                    &format!("judge {name} {variant:?}"),
                    2_000,
                    15.0,
                    |n| {
                        let (a, b) = make(n);
                        (join(&a), join(&b))
                    },
                    |(a, b)| {
                        let r = judge_fast(a, b, &one, variant);
                        let expect = !name.starts_with("no match");
                        assert_eq!(r, Judged::Decided(expect, Path::Pairing), "{name}");
                    },
                );
            }
        }
    }

    #[test]
    fn plain_loop_is_quadratic_on_these_shapes() {
        // What the indexed pairing saves: the pair tests of the plain loop at n and 4n.
        let (a1, b1) = shapes()[2].1(500);
        let (a2, b2) = shapes()[2].1(2_000);
        let (r1, _, t1) = plain(&a1, &b1, vec![1e-8; 500], Variant::OpenBmb);
        let (r2, _, t2) = plain(&a2, &b2, vec![1e-8; 2_000], Variant::OpenBmb);
        assert_eq!((r1, r2), (Ok(true), Ok(true)));
        assert!(t2 as f64 / t1 as f64 > 14.0, "{t1} {t2}");
    }
}
