"""fairlearn's name for one grouping feature (``GroupFeature``): fairkit's ``_Feature``."""

from fairkit.metrics._frame import _Feature as GroupFeature

__all__ = ["GroupFeature"]
