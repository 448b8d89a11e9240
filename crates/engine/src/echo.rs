//! Echoing what a user gave back in an error message: a long run of digits (a 309-digit
//! number given for a count) is cut, so that an error stays short whatever it quotes. The
//! CLI (`cli::output`) and the board (`serve::protocol`) both use it.

/// Error text with each run of more than `MAX_DIGITS` digits cut to its first ones and `...`:
/// a 309-digit number given for a count is not echoed whole. Every error the CLI prints
/// (its own and clap's) and every error the board sends passes through here.
pub fn shorten_numbers(text: &str) -> String {
    const MAX_DIGITS: usize = 20;
    let mut out = String::with_capacity(text.len());
    let mut run = 0;
    for c in text.chars() {
        if c.is_ascii_digit() {
            run += 1;
            if run == MAX_DIGITS + 1 {
                out.push_str("...");
            }
            if run > MAX_DIGITS {
                continue;
            }
        } else {
            run = 0;
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_numbers_are_cut_in_errors() {
        let long = "9".repeat(309);
        let shown = shorten_numbers(&format!("'{long}' is not a number; 12345 is fine"));
        assert_eq!(
            shown,
            format!("'{}...' is not a number; 12345 is fine", &long[..20])
        );
    }
}
