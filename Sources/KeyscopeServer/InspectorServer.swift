import CLibWebSockets

/// The inspector's HTTP + WebSocket server (being written).
enum InspectorServerPlaceholder {}
