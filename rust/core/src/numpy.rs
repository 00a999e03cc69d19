//! numpy's float64 reductions, bit for bit: the references average scores with
//! `np.mean`, whose pairwise summation rounds differently from a plain loop.

/// `numpy.sum` of a contiguous float64 array: pairwise summation with 8 accumulators over
/// blocks of at most 128 values.
pub fn np_sum(a: &[f64]) -> f64 {
    let n = a.len();
    if n < 8 {
        let mut r = 0.0;
        for &x in a {
            r += x;
        }
        r
    } else if n <= 128 {
        let mut acc = [0.0f64; 8];
        acc.copy_from_slice(&a[..8]);
        let whole = n - n % 8;
        let mut i = 8;
        while i < whole {
            for j in 0..8 {
                acc[j] += a[i + j];
            }
            i += 8;
        }
        let mut r = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
        for &x in &a[whole..] {
            r += x;
        }
        r
    } else {
        let mut n2 = n / 2;
        n2 -= n2 % 8;
        np_sum(&a[..n2]) + np_sum(&a[n2..])
    }
}

/// `numpy.mean` (NaN for no values).
pub fn np_mean(a: &[f64]) -> f64 {
    np_sum(a) / a.len() as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn np_sum_blocks() {
        let v: Vec<f64> = (0..1000).map(|i| 1.0 / (i as f64 + 1.0)).collect();
        // Sequential summation differs from numpy's pairwise result on this series.
        let seq: f64 = v.iter().fold(0.0, |a, b| a + b);
        assert_ne!(np_sum(&v), seq);
        assert_eq!(np_sum(&v[..5]), (((v[0] + v[1]) + v[2]) + v[3]) + v[4]);
        assert!(np_mean(&[]).is_nan());
    }

    #[test]
    fn pairwise_is_close_to_sequential() {
        let a: Vec<f64> = (0..1000).map(|i| (i as f64).sqrt() / 7.0).collect();
        let seq: f64 = a.iter().sum();
        assert!((np_sum(&a) - seq).abs() < 1e-9);
        assert_eq!(np_sum(&[]), 0.0);
        assert!(np_mean(&[]).is_nan());
    }
}
