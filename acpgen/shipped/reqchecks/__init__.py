"""The fixed check helpers of the generated requirement tests, copied verbatim into them."""
