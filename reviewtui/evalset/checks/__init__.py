"""Everything that looks for problems in a set: the spec's filters and chain, the golden-set audit,
type guesses, per-item flags, the similarity joins behind them, and the reports."""
