public import KeyscopeCore
