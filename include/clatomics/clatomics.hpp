// clatomics/clatomics.hpp — everything.
#pragma once

#include "clatomics/capabilities.hpp"
#include "clatomics/device.hpp"
#include "clatomics/error.hpp"
#include "clatomics/options.hpp"
#include "clatomics/runtime.hpp"
#include "clatomics/source.hpp"
