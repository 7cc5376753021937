"""The screen layer: screens as values, their layout and font, and the pictures drawn from
them."""
