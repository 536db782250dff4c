"""Plug-ins, as their authors meet them (a stable import path).

The protocol and its types are in [`continual_arc.play.plugins`][continual_arc.play.plugins], the runtime that
composes and checks them in [`continual_arc.play.plugin_manager`][continual_arc.play.plugin_manager], and two
examples in [`continual_arc.play.plugin_examples`][continual_arc.play.plugin_examples].
"""

from .play.plugin_examples import HintPlugin, PracticeAfterFailure, with_extra
from .play.plugin_manager import PendingEpisode, PluginManager, PluginTrace, plugin_totals
from .play.plugins import (
    HOOKS,
    MAX_EPISODES_PER_ROUND,
    Addon,
    AuxiliaryEpisode,
    BaseAddon,
    BasePlugin,
    Episode,
    LegacyAddonPlugin,
    Plugin,
    PluginError,
    PluginResponse,
    PluginSpecError,
    RunInfo,
    check_plugin,
    load_plugin,
    plugin_name,
)
from .stream.seeds import ADDON_SEED_BASE, addon_seed

__all__ = [
    "ADDON_SEED_BASE",
    "HOOKS",
    "MAX_EPISODES_PER_ROUND",
    "Addon",
    "AuxiliaryEpisode",
    "BaseAddon",
    "BasePlugin",
    "Episode",
    "HintPlugin",
    "LegacyAddonPlugin",
    "PendingEpisode",
    "Plugin",
    "PluginError",
    "PluginManager",
    "PluginResponse",
    "PluginSpecError",
    "PluginTrace",
    "PracticeAfterFailure",
    "RunInfo",
    "addon_seed",
    "check_plugin",
    "load_plugin",
    "plugin_name",
    "plugin_totals",
    "with_extra",
]
