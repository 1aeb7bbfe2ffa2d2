"""The dream: passes that tidy the vault while it is idle (DREAM.md)."""
