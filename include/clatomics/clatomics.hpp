// clatomics/clatomics.hpp — everything.
#pragma once

#include "clatomics/algorithms.hpp"
#include "clatomics/capabilities.hpp"
#include "clatomics/compact.hpp"
#include "clatomics/device.hpp"
#include "clatomics/device_group.hpp"
#include "clatomics/dot.hpp"
#include "clatomics/error.hpp"
#include "clatomics/histogram.hpp"
#include "clatomics/options.hpp"
#include "clatomics/plan.hpp"
#include "clatomics/predicate.hpp"
#include "clatomics/profile.hpp"
#include "clatomics/reduce.hpp"
#include "clatomics/runtime.hpp"
#include "clatomics/source.hpp"
#include "clatomics/view.hpp"
