//! One stored value: a position's class under R18 from a fresh count (which also gives its
//! theoretical result) and its distance to the next capture or man move (dtc), in a `u16`.
//!
//! Bits 13-15 hold the class, bits 0-12 the dtc (0 for a draw). A dtc that does not fit
//! (more than 8,191 plies; none comes near) saturates.

use crate::egdb::{Probe, Wdl, Wdl50};

/// The largest dtc a value holds.
pub const MAX_DTC: u16 = (1 << 13) - 1;

/// The value of a position with no legal move (R16): lost at once.
pub const TERMINAL_LOSS: u16 = encode(Wdl50::Loss, 0);

/// The class codes, in `Wdl50`'s order.
const fn class_code(c: Wdl50) -> u16 {
    match c {
        Wdl50::Loss => 0,
        Wdl50::BlessedLoss => 1,
        Wdl50::Draw => 2,
        Wdl50::CursedWin => 3,
        Wdl50::Win => 4,
    }
}

/// A class and a dtc in one value.
pub const fn encode(class: Wdl50, dtc: u16) -> u16 {
    let d = if dtc > MAX_DTC { MAX_DTC } else { dtc };
    class_code(class) << 13 | d
}

/// The class of a value, or None for a code no builder writes.
#[inline]
pub fn class(v: u16) -> Option<Wdl50> {
    Some(match v >> 13 {
        0 => Wdl50::Loss,
        1 => Wdl50::BlessedLoss,
        2 => Wdl50::Draw,
        3 => Wdl50::CursedWin,
        4 => Wdl50::Win,
        _ => return None,
    })
}

/// The theoretical result of a class.
#[inline]
pub fn wdl_of(c: Wdl50) -> Wdl {
    match c {
        Wdl50::Loss | Wdl50::BlessedLoss => Wdl::Loss,
        Wdl50::Draw => Wdl::Draw,
        Wdl50::CursedWin | Wdl50::Win => Wdl::Win,
    }
}

/// The dtc of a value.
#[inline]
pub fn dtc(v: u16) -> u16 {
    v & MAX_DTC
}

/// The probe answer a value stands for.
pub fn decode(v: u16) -> Option<Probe> {
    let c = class(v)?;
    let wdl = wdl_of(c);
    Some(Probe {
        wdl,
        wdl50: c,
        dtc: (wdl != Wdl::Draw).then_some(dtc(v)),
    })
}

/// Is this a code the builder writes (a known class, dtc 0 for a draw)?
pub fn is_valid(v: u16) -> bool {
    match class(v) {
        None => false,
        Some(Wdl50::Draw) => dtc(v) == 0,
        Some(_) => true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip() {
        for c in [
            Wdl50::Loss,
            Wdl50::BlessedLoss,
            Wdl50::Draw,
            Wdl50::CursedWin,
            Wdl50::Win,
        ] {
            for d in [0, 1, 80, 81, MAX_DTC] {
                let v = encode(c, d);
                assert_eq!(class(v), Some(c));
                assert_eq!(dtc(v), d);
            }
        }
        assert_eq!(dtc(encode(Wdl50::Win, u16::MAX)), MAX_DTC);
        assert_eq!(class(0xFFFF), None);
    }
}
