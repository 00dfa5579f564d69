//! Report writers (placeholder until fair-report lands).
