"""People: a user's powers are their memberships (a role per organisation), nothing else.

Django's groups and per-user permissions are gone from the back office: they would grant
powers in every organisation at once (``trips.access``). A superuser manages people here.
"""

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import Group, User

from trips.models import Membership


class UserMembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    fields = ["organisation", "role"]
    verbose_name_plural = "roles (each holds in its organisation only)"


class PeopleAdmin(UserAdmin):
    fieldsets = [
        (None, {"fields": ("username", "password")}),
        ("Personal info", {"fields": ("first_name", "last_name", "email")}),
        ("Access", {"fields": ("is_active", "is_staff", "is_superuser")}),
        ("Important dates", {"fields": ("last_login", "date_joined")}),
    ]
    list_filter = ["is_staff", "is_superuser", "is_active", "memberships__role"]
    filter_horizontal = ()
    inlines = [UserMembershipInline]


for model in (Group, User):
    if admin.site.is_registered(model):
        admin.site.unregister(model)
admin.site.register(User, PeopleAdmin)
