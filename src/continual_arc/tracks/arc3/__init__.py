"""The arc3 track: games on ARC Prize's engine, written for this benchmark."""
