"""The benchmark's tracks, one subpackage per ARC-AGI edition."""
