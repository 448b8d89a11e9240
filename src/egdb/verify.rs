//! Re-checking every stored value against its successors (`egdb verify`).
